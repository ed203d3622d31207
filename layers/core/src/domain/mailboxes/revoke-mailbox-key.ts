import { listMailboxKeys } from './list-mailbox-keys.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { updateItem } from '../../table/ops.ts';
import { ApiError, notFound } from '../../errors/api-error.ts';
import { loadMailbox } from './mailbox.ts';

/** Revokes a key (by the mailbox's owner); the next request with it is refused. 404 for a key of another mailbox. */
export const revokeMailboxKey = async (
  deps: Deps,
  input: { teamId: string; mailboxId: string; keyId: string; actorUserId: string },
): Promise<void> => {
  const mailbox = await loadMailbox(deps, input.teamId, input.mailboxId);
  if (mailbox.ownerUserId !== input.actorUserId)
    throw new ApiError('forbidden', `Only the owner of ${mailbox.address} revokes its keys.`);
  const found = (await listMailboxKeys(deps, input.teamId, input.mailboxId)).find((k) => k.id === input.keyId);
  if (!found) throw notFound('Mailbox key');
  await updateItem(
    deps,
    keys.mailbox.key(found.hash),
    { set: { revoked: true, revoked_at: new Date(deps.clock.now()).toISOString() } },
    { exists: true },
  );
};
