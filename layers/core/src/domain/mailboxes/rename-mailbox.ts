import { addressTaken, checkName, checkLocalPart } from './mailbox-names.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { transact } from '../../table/ops.ts';
import { ApiError } from '../../errors/api-error.ts';
import { eventItem, publishEvents } from '../events/record-event.ts';
import { inboxView, type InboxEventSource } from './inbox-view.ts';
import { loadMailbox, type Mailbox } from './mailbox.ts';

/**
 * Renames a mailbox: a new local part (its address moves; mail to the old address is no longer
 * accepted) and/or a new display name. 409 when the new address is already a mailbox.
 */
export const renameMailbox = async (
  deps: Deps,
  teamId: string,
  mailboxId: string,
  change: { localPart?: string | undefined; name?: string | null | undefined; title?: string | null | undefined },
  source: InboxEventSource = 'dashboard',
): Promise<Mailbox> => {
  const m = await loadMailbox(deps, teamId, mailboxId);
  const localPart = change.localPart === undefined ? m.localPart : checkLocalPart(change.localPart);
  const name = change.name === undefined ? m.name : checkName(change.name);
  const title = change.title === undefined ? m.title : checkName(change.title, 'title');
  const domainName = m.address.slice(m.address.indexOf('@') + 1);
  const address = `${localPart}@${domainName}`;
  const now = new Date(deps.clock.now()).toISOString();
  const set = { local_part: localPart, address, name, title, updated_at: now };
  const moves = address !== m.address;
  const renamed = { ...m, localPart, address, name, title, updatedAt: now };
  const updated = eventItem(deps, teamId, 'inbox.updated', { source, inbox_id: m.id, inbox: inboxView(renamed) });
  const written = await transact(deps, [
    { put: updated.item },
    { update: keys.mailbox.item(teamId, mailboxId), change: { set }, when: { attr: 'address', eq: m.address } },
    ...(moves
      ? [
          {
            put: {
              ...keys.mailbox.addressGuard(address),
              type: 'mailbox_address',
              team_id: teamId,
              mailbox_id: mailboxId,
            },
            when: { exists: false },
          },
          { delete: keys.mailbox.addressGuard(m.address), when: { attr: 'mailbox_id', eq: mailboxId } },
        ]
      : []),
  ]);
  if (!written.ok) {
    if (written.failed === 2) throw addressTaken(address);
    throw new ApiError(
      'conflict',
      `The mailbox ${m.address} changed meanwhile (renamed or deleted); read it again and retry.`,
    );
  }
  await publishEvents(deps, [updated.record]);
  return renamed;
};
