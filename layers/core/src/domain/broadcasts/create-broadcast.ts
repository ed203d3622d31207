import { fromTemplate, checkRefs } from './save-broadcast.ts';
import { replyToList } from '../emails/rules/addresses.ts';
import type { Deps } from '../../runtime/deps.ts';
import { validationError } from '../../errors/api-error.ts';
import type { CreateBroadcastRequest } from '../../schemas/broadcasts.ts';
import { putBroadcast, type BroadcastItem } from '../../table/broadcasts.ts';

/** Creates a draft (POST /broadcasts; the handler sends it at once when asked). */
export const createBroadcast = async (
  deps: Deps,
  teamId: string,
  input: CreateBroadcastRequest,
): Promise<BroadcastItem> => {
  await checkRefs(deps, teamId, input);
  const t = input.template ? await fromTemplate(deps, teamId, input.template) : undefined;
  const from = input.from ?? t?.from;
  const subject = input.subject ?? t?.subject;
  if (!from) throw validationError('`from` is required: the template has no sender, so give `from`.');
  if (!subject) throw validationError('`subject` is required: the template has no subject, so give `subject`.');
  const now = new Date(deps.clock.now()).toISOString();
  const b: BroadcastItem = {
    id: deps.ids.next(),
    team_id: teamId,
    name: input.name ?? null,
    segment_id: (input.segment_id ?? input.audience_id)!,
    topic_id: input.topic_id ?? null,
    from,
    subject,
    reply_to: replyToList(input.reply_to) ?? t?.reply_to ?? null,
    preview_text: input.preview_text ?? null,
    html: t ? t.html : (input.html ?? null),
    text: t ? t.text : (input.text ?? null),
    template_variables: t?.template_variables ?? null,
    status: 'draft',
    created_at: now,
    updated_at: now,
    scheduled_at: null,
    sent_at: null,
  };
  await putBroadcast(deps, b);
  return b;
};
