import type { Deps } from '../../runtime/deps.ts';
import { validationError } from '../../errors/api-error.ts';
import { findDomainByName } from '../domains/domain.ts';
import { listMembers } from '../people/membership.ts';
import type { Mailbox } from './mailbox.ts';
import { createMailbox } from './create-mailbox.ts';

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
