import { getContactProperty, type ContactProperty } from './contact-property.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { updateItem } from '../../table/ops.ts';
import { validationError } from '../../errors/api-error.ts';

/** Changes the fallback value (key and type are fixed). */
export const updateContactProperty = async (
  deps: Deps,
  teamId: string,
  id: string,
  fallback: string | number | null,
): Promise<ContactProperty> => {
  const p = await getContactProperty(deps, teamId, id);
  if (fallback !== null && typeof fallback !== p.type)
    throw validationError(`\`fallback_value\` must be a ${p.type}, as the property is.`);
  await updateItem(deps, keys.contactProperty.item(teamId, id), { set: { fallback_value: fallback } });
  return { ...p, fallbackValue: fallback };
};
