import { everyThreadItem, loadThread } from './inbox-thread.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { batchWriteItems, transact, type Write } from '../../table/ops.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { Mailbox } from './mailbox.ts';
import { messageIdHash } from './message.ts';
import { changeStorage } from './license.ts';

/**
 * Deletes a thread and its messages for good: their rows, their raw MIME, their Message-ID
 * index rows and their entries in the thread's item collection (read consistently, so the
 * message that arrived a moment ago goes too); the storage they held is given back, and an
 * unread thread counts one less. Drafts made in the thread stay (they are the drafts' own).
 */
export const removeInboxThread = async (deps: Deps, m: Mailbox, threadId: string): Promise<void> => {
  const t = await loadThread(deps, m, threadId);
  const written = await transact(deps, [
    { delete: keys.mailbox.thread(m.teamId, m.id, threadId), when: { attr: 'read', eq: t.read === true } },
    ...(t.read === true
      ? []
      : [
          {
            update: keys.mailbox.item(m.teamId, m.id),
            change: { add: { unread_count: -1 } },
            when: { exists: true },
          } as Write,
        ]),
  ]);
  if (!written.ok) throw new ApiError('conflict', `The thread ${threadId} changed meanwhile; read it again and retry.`);
  // Read consistently (not through the thread index): a message of the last moment goes too.
  const messages = await everyThreadItem(deps, m, threadId);
  for (const msg of messages) if (msg.raw_key) await deps.content.delete(msg.raw_key);
  await batchWriteItems(deps, {
    delete: messages.flatMap((msg) => [
      keys.message.item(m.teamId, msg.id),
      keys.mailbox.threadMessage(m.teamId, m.id, threadId, msg.id),
      ...(msg.message_id ? [keys.mailbox.messageId(m.teamId, m.id, messageIdHash(msg.message_id))] : []),
    ]),
  });
  const bytes = messages.reduce((n, msg) => n + (msg.direction === 'inbound' ? Number(msg.size ?? 0) : 0), 0);
  if (bytes) await changeStorage(deps, m.teamId, -bytes);
};
