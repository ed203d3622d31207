import { getTemplate } from './get-template.ts';
import { saved } from './save-template.ts';
import type { Deps } from '../../runtime/deps.ts';
import type { TemplateItem } from '../../table/templates.ts';

/** Publishes the current version (every save is already live: this stamps published_at). */
export const publishTemplate = async (deps: Deps, teamId: string, idOrAlias: string): Promise<TemplateItem> => {
  const t = await getTemplate(deps, teamId, idOrAlias);
  return saved(deps, { ...t, published_at: new Date(deps.clock.now()).toISOString() }, t.alias);
};
