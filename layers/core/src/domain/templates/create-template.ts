import { saved, checkSenders, variablesOf } from './save-template.ts';
import { replyToList } from '../emails/rules/addresses.ts';
import type { Deps } from '../../runtime/deps.ts';
import type { CreateTemplateRequest } from '../../schemas/templates.ts';
import type { TemplateItem } from '../../table/templates.ts';

/** Creates a template; every save is live at once (status published). */
export const createTemplate = async (
  deps: Deps,
  teamId: string,
  input: CreateTemplateRequest,
): Promise<TemplateItem> => {
  checkSenders(input);
  const now = new Date(deps.clock.now()).toISOString();
  const id = deps.ids.next();
  return saved(
    deps,
    {
      id,
      team_id: teamId,
      name: input.name,
      alias: input.alias ?? null,
      from: input.from ?? null,
      subject: input.subject ?? null,
      reply_to: replyToList(input.reply_to),
      html: input.html,
      text: input.text ?? null,
      variables: variablesOf(input.variables, [], now, () => deps.ids.next()),
      current_version_id: deps.ids.next(),
      published_at: now,
      created_at: now,
      updated_at: now,
    },
    null,
  );
};
