import { getTemplate } from './get-template.ts';
import type { Deps } from '../../runtime/deps.ts';
import { removeTemplate, type TemplateItem } from '../../table/templates.ts';

/** Deletes a template; broadcasts made from it keep their own copy. */
export const deleteTemplate = async (deps: Deps, teamId: string, idOrAlias: string): Promise<TemplateItem> => {
  const t = await getTemplate(deps, teamId, idOrAlias);
  await removeTemplate(deps, t);
  return t;
};
