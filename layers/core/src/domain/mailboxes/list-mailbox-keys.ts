import { keyFromItem, type MailboxKey } from './mailbox-key.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryAll } from '../../table/ops.ts';

/** The keys of a mailbox, revoked ones included. */
export const listMailboxKeys = async (
  deps: Deps,
  teamId: string,
  mailboxId: string,
): Promise<(MailboxKey & { hash: string })[]> =>
  (await queryAll(deps, { ...keys.mailbox.keyListPartition(teamId, mailboxId) })).map((i) => ({
    ...keyFromItem(i),
    hash: i.hash as string,
  }));
