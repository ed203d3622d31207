import type { Deps } from '../runtime/deps.ts';
import { getItem, type Write } from './ops.ts';
import { keys } from './keys.ts';

/**
 * The global claim on a domain name: provider identities are account-wide, so one team at a
 * time holds a name, and its identity is removed only when that team lets go.
 */
export interface DomainClaim {
  readonly teamId: string;
  readonly domainId: string;
}

/** The team holding a domain name, if any. */
export const findDomainClaim = async (deps: Deps, name: string): Promise<DomainClaim | undefined> => {
  const item = await getItem(deps, keys.domain.claim(name));
  return item ? { teamId: String(item.team_id), domainId: String(item.domain_id) } : undefined;
};

/** A transaction write that claims a free name for a team (fails if any team holds it). */
export const claimDomainWrite = (name: string, claim: DomainClaim): Write => ({
  put: {
    ...keys.domain.claim(name),
    ...keys.domain.held(name),
    type: 'domain_claim',
    name: name.toLowerCase(),
    team_id: claim.teamId,
    domain_id: claim.domainId,
  },
  when: { exists: false },
});

/** A transaction write that lets go of a name, only if this team's domain holds it. */
export const releaseDomainWrite = (name: string, claim: DomainClaim): Write => ({
  delete: keys.domain.claim(name),
  when: {
    and: [
      { attr: 'team_id', eq: claim.teamId },
      { attr: 'domain_id', eq: claim.domainId },
    ],
  },
});

/** A transaction write that moves a name from the team holding it to another (a completed domain claim). */
export const takeOverDomainWrite = (name: string, from: DomainClaim, to: DomainClaim): Write => ({
  put: {
    ...keys.domain.claim(name),
    ...keys.domain.held(name),
    type: 'domain_claim',
    name: name.toLowerCase(),
    team_id: to.teamId,
    domain_id: to.domainId,
  },
  when: {
    and: [
      { attr: 'team_id', eq: from.teamId },
      { attr: 'domain_id', eq: from.domainId },
    ],
  },
});
