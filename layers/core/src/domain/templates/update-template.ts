import { getTemplate } from './get-template.ts';
import { saved, checkSenders, variablesOf } from './save-template.ts';
import { replyToList } from '../emails/rules/addresses.ts';
import type { Deps } from '../../runtime/deps.ts';
import type { UpdateTemplateRequest } from '../../schemas/templates.ts';
import type { TemplateItem } from '../../table/templates.ts';

/** Changes a template; live at once (a new version id). */
export const updateTemplate = async (
  deps: Deps,
  teamId: string,
  idOrAlias: string,
  change: UpdateTemplateRequest,
): Promise<TemplateItem> => {
  checkSenders(change);
  const t = await getTemplate(deps, teamId, idOrAlias);
  const now = new Date(deps.clock.now()).toISOString();
  const pick = <K extends keyof UpdateTemplateRequest & keyof TemplateItem>(k: K) =>
    change[k] === undefined ? t[k] : change[k];
  return saved(
    deps,
    {
      ...t,
      name: change.name ?? t.name,
      html: change.html ?? t.html,
      alias: pick('alias') ?? null,
      subject: pick('subject') ?? null,
      text: pick('text') ?? null,
      from: pick('from') ?? null,
      reply_to: change.reply_to === undefined ? t.reply_to : replyToList(change.reply_to),
      variables:
        change.variables === undefined
          ? t.variables
          : variablesOf(change.variables, t.variables, now, () => deps.ids.next()),
      current_version_id: deps.ids.next(),
      published_at: now,
      updated_at: now,
    },
    t.alias,
  );
};
