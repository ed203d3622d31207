import { everyThreadItem, type MOVE_FOLDERS, loadThread, threadSummary, labelsOf } from './inbox-thread.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { transact, updateItem, type Write } from '../../table/ops.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { Mailbox, MailboxFolder } from './mailbox.ts';
import { eventItem, publishEvents } from '../events/record-event.ts';

/**
 * Marks a thread read or unread and/or moves it to another folder (its received messages move
 * with it; sent ones stay in sent). The inbox's unread count moves with the read state, in the
 * same write, conditioned on the state read (a concurrent change makes the caller retry: 409).
 */
export const updateInboxThread = async (
  deps: Deps,
  m: Mailbox,
  threadId: string,
  change: { read?: boolean | undefined; folder?: (typeof MOVE_FOLDERS)[number] | undefined },
) => {
  const t = await loadThread(deps, m, threadId);
  const wasRead = t.read === true;
  const read = change.read ?? wasRead;
  const folder = change.folder ?? (t.folder as MailboxFolder);
  const moves = folder !== t.folder;
  const unreadDelta = read === wasRead ? 0 : read ? -1 : 1;
  const moved = moves
    ? eventItem(deps, m.teamId, 'inbox.thread.folder.updated', {
        source: 'api',
        inbox_id: m.id,
        thread_id: threadId,
        from: t.folder,
        to: folder,
      })
    : undefined;
  const writes: Write[] = [
    ...(moved ? [{ put: moved.item }] : []),
    {
      update: keys.mailbox.thread(m.teamId, m.id, threadId),
      change: {
        set: {
          read,
          folder,
          ...(moves ? keys.mailbox.threadListing(m.teamId, m.id, folder, t.last_message_at, threadId) : {}),
        },
      },
      when: {
        and: [
          { attr: 'read', eq: wasRead },
          { attr: 'folder', eq: t.folder },
        ],
      },
    },
    ...(unreadDelta
      ? [
          {
            update: keys.mailbox.item(m.teamId, m.id),
            change: { add: { unread_count: unreadDelta } },
            when: { exists: true },
          } as Write,
        ]
      : []),
  ];
  const written = await transact(deps, writes);
  if (!written.ok)
    throw new ApiError(
      'conflict',
      `The thread ${threadId} changed meanwhile (read or moved); read it again and retry.`,
    );
  if (moved) await publishEvents(deps, [moved.record]);
  if (moves) {
    // Every message, read consistently (not through the thread index): the newest moves too.
    for (const msg of await everyThreadItem(deps, m, threadId))
      if (msg.direction === 'inbound')
        await updateItem(deps, keys.message.item(m.teamId, msg.id), {
          set: { folder, ...keys.message.folderListing(m.teamId, m.id, folder, msg.id) },
        });
  }
  const after = { ...t, read, folder };
  return threadSummary(after, await labelsOf(deps, m, [after]));
};
