import type { Deps } from '../../runtime/deps.ts';
import { notFound, validationError } from '../../errors/api-error.ts';
import { findDomainByName } from '../domains/domain.ts';
import { listMembers } from '../people/membership.ts';
import { pageOf, type Page } from '../paging.ts';
import type { Pagination } from '../../schemas/common.ts';
import { findMailboxByAddress, loadMailbox, type Mailbox } from './mailbox.ts';
import { createMailbox } from './create-mailbox.ts';
import { deleteMailbox } from './delete-mailbox.ts';
import { listMailboxes } from './list-mailboxes.ts';
import { renameMailbox } from './rename-mailbox.ts';

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

const RANK: Readonly<Record<string, number>> = { owner: 0, admin: 1 };

/**
 * The person an inbox made with an API key belongs to (a key stands for no person): the team's
 * first owner, else its first admin, else its first person; they make its mailbox keys.
 */
const defaultOwner = async (deps: Deps, teamId: string): Promise<string> => {
  const people = (await listMembers(deps, teamId)).sort(
    (a, b) => (RANK[a.role] ?? 2) - (RANK[b.role] ?? 2) || a.createdAt.localeCompare(b.createdAt),
  );
  const owner = people[0];
  if (!owner)
    throw validationError(
      'This team has no person to own the inbox (an inbox is a mailbox, owned by a person of the team): invite someone in the dashboard first.',
    );
  return owner.userId;
};

/**
 * Creates an inbox: a mailbox `local@domain` on a verified domain of the team, owned by the
 * team's first owner (see defaultOwner), with the same rules as the dashboard (422 for a domain the team does not
 * have or has not verified, 409 for an address that is already a mailbox anywhere).
 */
export const createInbox = async (
  deps: Deps,
  teamId: string,
  input: { emailAddress: string; name?: string | undefined; fromName?: string | undefined },
): Promise<Mailbox> => {
  const address = input.emailAddress.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  const domainName = address.slice(at + 1);
  const domain = at > 0 ? await findDomainByName(deps, teamId, domainName) : undefined;
  if (!domain)
    throw validationError(
      `\`email_address\` must be an address on a verified domain of this team; ${domainName ? `${domainName} is not one of its domains` : `got \`${input.emailAddress}\``} (add and verify it with POST /domains first).`,
    );
  return createMailbox(deps, {
    teamId,
    domainId: domain.id,
    localPart: address.slice(0, at),
    name: input.fromName,
    title: input.name,
    ownerUserId: await defaultOwner(deps, teamId),
    source: 'api',
  });
};

/** A page of the team's inboxes, newest first (a team has few: read whole, then paged). */
export const listInboxes = async (
  deps: Deps,
  teamId: string,
  page: Pagination,
  within?: readonly string[],
): Promise<Page<Mailbox>> => {
  const all = (await listMailboxes(deps, teamId)).filter((m) => !within || within.includes(m.id)).reverse();
  return pageOf(all, page);
};

/** Renames an inbox: its `name` (title) and/or `from_name` (the display name its mail goes out with). */
export const updateInbox = async (
  deps: Deps,
  teamId: string,
  idOrAddress: string,
  change: { name?: string | undefined; fromName?: string | undefined },
): Promise<Mailbox> => {
  const m = await resolveInbox(deps, teamId, idOrAddress);
  return renameMailbox(deps, teamId, m.id, { title: change.name, name: change.fromName }, 'api');
};

/** Deletes an inbox as a mailbox is deleted (its drafts go, its received mail stays readable). */
export const removeInbox = async (deps: Deps, teamId: string, idOrAddress: string): Promise<Mailbox> => {
  const m = await resolveInbox(deps, teamId, idOrAddress);
  return deleteMailbox(deps, teamId, m.id, 'api');
};
