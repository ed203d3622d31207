import { resolveInbox } from './inbox.ts';
import type { Deps } from '../../runtime/deps.ts';
import type { Mailbox } from './mailbox.ts';
import { deleteMailbox } from './delete-mailbox.ts';

/** Deletes an inbox as a mailbox is deleted (its drafts go, its received mail stays readable). */
export const removeInbox = async (deps: Deps, teamId: string, idOrAddress: string): Promise<Mailbox> => {
  const m = await resolveInbox(deps, teamId, idOrAddress);
  return deleteMailbox(deps, teamId, m.id, 'api');
};
