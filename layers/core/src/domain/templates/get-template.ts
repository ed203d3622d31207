import type { Deps } from '../../runtime/deps.ts';
import { notFound } from '../../errors/api-error.ts';
import { isId } from '../contacts/contact.ts';
import { readTemplate, templateIdByAlias, type TemplateItem } from '../../table/templates.ts';

/** Reads a template by id or alias; another team's answers 404. */
export const getTemplate = async (deps: Deps, teamId: string, idOrAlias: string): Promise<TemplateItem> => {
  const id = isId(idOrAlias) ? idOrAlias : await templateIdByAlias(deps, teamId, idOrAlias);
  const t = id ? await readTemplate(deps, teamId, id) : undefined;
  if (!t) throw notFound(`Template ${idOrAlias}`);
  return t;
};
