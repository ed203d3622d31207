import { getTemplate } from './get-template.ts';
import { saved } from './save-template.ts';
import type { Deps } from '../../runtime/deps.ts';
import type { TemplateItem } from '../../table/templates.ts';

/** Copies a template under a new id (no alias: aliases are unique). */
export const duplicateTemplate = async (deps: Deps, teamId: string, idOrAlias: string): Promise<TemplateItem> => {
  const t = await getTemplate(deps, teamId, idOrAlias);
  const now = new Date(deps.clock.now()).toISOString();
  // The copy's variables are its own: new ids, same keys, types and fallbacks.
  const variables = t.variables.map((x) => ({ ...x, id: deps.ids.next() }));
  return saved(
    deps,
    {
      ...t,
      id: deps.ids.next(),
      name: `${t.name} (copy)`,
      alias: null,
      variables,
      current_version_id: deps.ids.next(),
      published_at: now,
      created_at: now,
      updated_at: now,
    },
    null,
  );
};
