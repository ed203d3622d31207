import type { Deps } from '../../runtime/deps.ts';
import { loadMailbox, type Mailbox } from './mailbox.ts';

/** A team's mailbox by id (404 for another team's). */
export const getMailbox = (deps: Deps, teamId: string, mailboxId: string): Promise<Mailbox> =>
  loadMailbox(deps, teamId, mailboxId);
