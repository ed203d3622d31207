import { getInboxDraft } from './get-inbox-draft.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { transact } from '../../table/ops.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { Mailbox } from './mailbox.ts';
import { eventDraft } from './inbox-draft-view.ts';
import { eventItem, publishEvents } from '../events/record-event.ts';
import { changeStorage } from './license.ts';
import { threadDraftsCounted } from './drafts.ts';

/** Deletes a draft: its row and attachment bytes go, its storage is given back; a sent one's attachments stay with its sent copy. */
export const removeInboxDraft = async (deps: Deps, m: Mailbox, draftId: string): Promise<void> => {
  const d = await getInboxDraft(deps, m, draftId);
  if (d.status === 'sending')
    throw new ApiError('conflict', `Draft ${d.id} is being sent right now; read it again in a moment.`);
  const deleted = eventItem(deps, m.teamId, 'inbox.draft.deleted', {
    source: 'api',
    inbox_id: m.id,
    ...(d.threadId ? { thread_id: d.threadId } : {}),
    draft_id: d.id,
    draft: eventDraft(d),
  });
  const written = await transact(deps, [
    { delete: keys.mailbox.draft(m.teamId, m.id, d.id), when: { attr: 'revision', eq: d.revision } },
    { put: deleted.item },
    ...(d.status === 'sent'
      ? []
      : [{ update: keys.mailbox.item(m.teamId, m.id), change: { add: { draft_count: -1 } }, when: { exists: true } }]),
  ]);
  if (!written.ok) throw new ApiError('conflict', `Draft ${d.id} changed meanwhile; read it again and retry.`);
  if (d.status !== 'sent') await threadDraftsCounted(deps, m, d.threadId, -1);
  await publishEvents(deps, [deleted.record]);
  if (d.sentRevision === null) for (const a of d.attachments) await deps.content.delete(a.contentKey);
  await changeStorage(deps, m.teamId, -d.sizeBytes);
};
