import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryAll } from '../../table/ops.ts';
import { mailboxFromItem, type Mailbox } from './mailbox.ts';

/** The mailboxes of a team, oldest first (a team has few). */
export const listMailboxes = async (deps: Deps, teamId: string): Promise<Mailbox[]> =>
  (await queryAll(deps, { pk: keys.mailbox.partition(teamId), prefix: keys.mailbox.prefix })).map(mailboxFromItem);
