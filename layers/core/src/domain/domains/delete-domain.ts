import { mailboxesRemain } from './update-domain.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { transact } from '../../table/ops.ts';
import { notFound } from '../../errors/api-error.ts';
import { domainEventData, loadDomain, type Domain } from './domain.ts';
import { findDomainClaim, releaseDomainWrite } from '../../table/domain-claims.ts';
import { seedDomainCounter } from './create-domain.ts';
import { eventItem, publishEvents } from '../events/record-event.ts';
import { syncInboundRecipients } from './inbound-recipients.ts';

/**
 * Deletes a domain, lets go of its name, and removes the provider identity only when this
 * domain held the name (no other team of the deployment sends from it) and this deployment's
 * stack created the identity (the identities port leaves anyone else's: another stack's, the
 * operator's, an adopted or claimed one).
 */
export const deleteDomain = async (deps: Deps, teamId: string, id: string): Promise<Domain> => {
  const d = await loadDomain(deps, teamId, id);
  if (d.mailboxCount > 0) throw mailboxesRemain(d);
  const claim = await findDomainClaim(deps, d.name);
  const deleted = eventItem(deps, teamId, 'domain.deleted', domainEventData(d, deps.config));
  const holds = claim?.teamId === teamId && claim.domainId === id;
  await seedDomainCounter(deps, teamId);
  // The domain's own delete is conditional, so of two concurrent deletes one moves the counter.
  const removed = await transact(deps, [
    {
      delete: keys.domain.item(teamId, id),
      when: {
        and: [
          { exists: true },
          {
            or: [
              { attr: 'mailbox_count', absent: true },
              { attr: 'mailbox_count', lt: 1 },
            ],
          },
        ],
      },
    },
    { delete: keys.domain.nameGuard(teamId, d.name) },
    { update: keys.domain.counter(teamId), change: { add: { count: -1 } } },
    ...(holds ? [releaseDomainWrite(d.name, { teamId, domainId: id })] : []),
    // A claim's placeholder takes its claim with it.
    { delete: keys.domain.claimOf(teamId, id) },
    { put: deleted.item },
  ]);
  if (!removed.ok) {
    if (removed.failed === 0 && (await loadDomain(deps, teamId, id)).mailboxCount > 0) throw mailboxesRemain(d);
    throw notFound('Domain');
  }
  await publishEvents(deps, [deleted.record]);
  if (holds) await syncInboundRecipients(deps);
  // A domain added before names were claimed holds its identity alone, as it always did.
  // A claim's placeholder and a domain claimed away hold no identity.
  if ((!claim || holds) && !d.claimPlaceholder && !d.claimedAwayAt)
    await deps.identities.remove({ domain: d.name, region: d.region });
  return d;
};
