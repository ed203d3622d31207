import { draftOf, fromTemplate, checkRefs, editRefused } from './save-broadcast.ts';
import { replyToList } from '../emails/rules/addresses.ts';
import type { Deps } from '../../runtime/deps.ts';
import { validationError } from '../../errors/api-error.ts';
import type { UpdateBroadcastRequest } from '../../schemas/broadcasts.ts';
import { putBroadcast, type BroadcastItem } from '../../table/broadcasts.ts';

/** Changes a draft; a sent broadcast answers 400 invalid_parameter. */
export const updateBroadcast = async (
  deps: Deps,
  teamId: string,
  id: string,
  change: UpdateBroadcastRequest,
): Promise<BroadcastItem> => {
  const b = await draftOf(deps, teamId, id);
  await checkRefs(deps, teamId, change);
  const t = change.template ? await fromTemplate(deps, teamId, change.template) : undefined;
  const next: BroadcastItem = {
    ...b,
    ...(change.name !== undefined ? { name: change.name } : {}),
    ...((change.segment_id ?? change.audience_id) ? { segment_id: (change.segment_id ?? change.audience_id)! } : {}),
    ...(change.topic_id !== undefined ? { topic_id: change.topic_id } : {}),
    ...(change.from !== undefined ? { from: change.from } : t?.from ? { from: t.from } : {}),
    ...(change.subject !== undefined ? { subject: change.subject } : t?.subject ? { subject: t.subject } : {}),
    ...(change.reply_to !== undefined ? { reply_to: replyToList(change.reply_to) } : {}),
    ...(change.preview_text !== undefined ? { preview_text: change.preview_text } : {}),
    ...(t ? { html: t.html, text: t.text, template_variables: t.template_variables } : {}),
    ...(change.html !== undefined ? { html: change.html } : {}),
    ...(change.text !== undefined ? { text: change.text } : {}),
    updated_at: new Date(deps.clock.now()).toISOString(),
  };
  if (!next.html && !next.text)
    throw validationError('A broadcast needs `html` or `text`; this change would leave it without a body.');
  if (!(await putBroadcast(deps, next, 'draft'))) throw editRefused({ ...b, status: 'sending' });
  return next;
};
