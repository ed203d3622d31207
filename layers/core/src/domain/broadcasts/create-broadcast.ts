import { fromTemplate, checkRefs } from './save-broadcast.ts';
import { replyToList } from '../emails/rules/addresses.ts';
import type { Deps } from '../../runtime/deps.ts';
import { isApiError, validationError } from '../../errors/api-error.ts';
import type { CreateBroadcastRequest } from '../../schemas/broadcasts.ts';
import { deleteDraft, putBroadcast, type BroadcastItem } from '../../table/broadcasts.ts';
import type { Team } from '../teams/team.ts';
import { sendBroadcast } from './send-broadcast.ts';

/** Creates a draft (POST /broadcasts without `send`). */
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

/**
 * POST /broadcasts with `send: true`: creates the broadcast and sends (or schedules) it. A send
 * that is refused (paused, unverified sender, too large...) leaves nothing behind: the draft it
 * was made as is removed before the error answers.
 */
export const createAndSendBroadcast = async (deps: Deps, team: Team, input: CreateBroadcastRequest) => {
  const b = await createBroadcast(deps, team.id, input);
  try {
    return await sendBroadcast(deps, team, b.id, input.scheduled_at);
  } catch (error) {
    if (isApiError(error)) await deleteDraft(deps, team.id, b.id);
    throw error;
  }
};
