import type { Deps } from '../../runtime/deps.ts';
import { notFound } from '../../errors/api-error.ts';
import { findMailboxByAddress, loadMailbox, type Mailbox } from './mailbox.ts';

/**
 * The reference SDK's `inboxes` over our mailboxes: an inbox is a mailbox, named by its id or
 * its address. Tenancy as everywhere: another team's inbox (and one outside the mailboxes an
 * OAuth grant chose, `within`) answers 404, whether named by id or by address.
 */

/** A team's mailbox by id or address (404 for another team's, an unknown one, or one outside `within`). */
export const resolveInbox = async (
  deps: Deps,
  teamId: string,
  idOrAddress: string,
  within?: readonly string[],
): Promise<Mailbox> => {
  const found = idOrAddress.includes('@')
    ? await findMailboxByAddress(deps, idOrAddress.trim())
    : await loadMailbox(deps, teamId, idOrAddress).catch(() => undefined);
  if (!found || found.teamId !== teamId || (within && !within.includes(found.id))) throw notFound('Inbox');
  return found;
};
