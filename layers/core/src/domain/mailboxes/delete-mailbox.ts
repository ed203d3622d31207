import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { batchWriteItems, queryAll, transact } from '../../table/ops.ts';
import { changeStorage } from './license.ts';
import { notFound } from '../../errors/api-error.ts';
import { eventItem, publishEvents } from '../events/record-event.ts';
import type { InboxEventSource } from './inbox-view.ts';
import { loadMailbox, type Mailbox } from './mailbox.ts';

/**
 * Deletes a mailbox: its address stops accepting mail at once and the domain counts one mailbox
 * less; its drafts are discarded and their storage given back. Its stored messages stay
 * readable through the receiving API until erased.
 */
export const deleteMailbox = async (
  deps: Deps,
  teamId: string,
  mailboxId: string,
  source: InboxEventSource = 'dashboard',
): Promise<Mailbox> => {
  const m = await loadMailbox(deps, teamId, mailboxId);
  const deleted = eventItem(deps, teamId, 'inbox.deleted', { source, inbox_id: m.id });
  const written = await transact(deps, [
    { put: deleted.item },
    { delete: keys.mailbox.item(teamId, mailboxId), when: { attr: 'address', eq: m.address } },
    { delete: keys.mailbox.addressGuard(m.address), when: { attr: 'mailbox_id', eq: mailboxId } },
    { update: keys.domain.item(teamId, m.domainId), change: { add: { mailbox_count: -1 } }, when: { exists: true } },
  ]);
  if (!written.ok) throw notFound('Mailbox');
  await publishEvents(deps, [deleted.record]);
  await discardDrafts(deps, m);
  return m;
};

/**
 * A deleted mailbox's drafts go with it: their rows and attachment bytes are removed and the
 * storage they held is given back to the team (its received mail stays, readable until erased).
 */
const discardDrafts = async (deps: Deps, m: Mailbox): Promise<void> => {
  const drafts = await queryAll(deps, {
    pk: keys.mailbox.threadPartition(m.teamId, m.id),
    prefix: keys.mailbox.draftPrefix,
  });
  if (drafts.length === 0) return;
  const sent = new Set<string>();
  // Attachments a sent copy still names stay (its message row points at them).
  for (const d of drafts)
    if (d.sent_revision !== undefined && d.sent_revision !== null)
      for (const a of d.attachments ?? []) sent.add(a.content_key);
  for (const d of drafts)
    for (const a of d.attachments ?? []) if (!sent.has(a.content_key)) await deps.content.delete(a.content_key);
  await batchWriteItems(deps, { delete: drafts.map((d) => ({ pk: d.pk, sk: d.sk })) });
  await changeStorage(deps, m.teamId, -drafts.reduce((n, d) => n + Number(d.size_bytes ?? 0), 0));
};
