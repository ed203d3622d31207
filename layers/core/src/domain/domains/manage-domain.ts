import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { transact, updateItem } from '../../table/ops.ts';
import { ApiError, notFound } from '../../errors/api-error.ts';
import type { UpdateDomainRequest } from '../../schemas/domains.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Page } from '../paging.ts';
import { queryPage } from '../../table/query-page.ts';
import {
  domainEventData,
  domainFromItem,
  loadDomain,
  needsTrackingRecord,
  trackingHost,
  type Domain,
  type DomainStatus,
} from './domain.ts';
import { findDomainClaim, releaseDomainWrite } from '../../table/domain-claims.ts';
import { seedDomainCounter } from './create-domain.ts';
import { canonicalHostName } from '../../ports/dns.ts';
import { eventItem, publishEvents, recordEvent } from '../events/record-event.ts';

const setStatus = async (deps: Deps, d: Domain, status: DomainStatus): Promise<Domain> => {
  if (d.status === status) return d;
  if (!(await updateItem(deps, keys.domain.item(d.teamId, d.id), { set: { status } }, { exists: true })))
    throw notFound('Domain');
  const next = { ...d, status };
  await recordEvent(deps, d.teamId, 'domain.updated', domainEventData(next, deps.config));
  return next;
};

/** Asks the provider for the domain's state, recording the outcome. */
const refresh = async (deps: Deps, d: Domain): Promise<Domain> => {
  const identity = await deps.identities.get({ domain: d.name, region: d.region });
  return setStatus(deps, d, identity.verified ? 'verified' : identity.failed ? 'failed' : 'pending');
};

/**
 * Checks a waiting Tracking record: the tracking host's CNAME must name the deployment's
 * tracking target. Once it does, the host is recorded (tracking links move to it) and the
 * change is a domain.updated event.
 */
const checkTracking = async (deps: Deps, d: Domain): Promise<Domain> => {
  if (!needsTrackingRecord(d, deps.config)) return d;
  const host = trackingHost(d);
  if (d.trackingHostVerified === host) return d;
  const targets = await deps.cnames.cname(host);
  if (!targets.some((t) => canonicalHostName(t) === deps.config.TRACKING_CNAME_TARGET)) return d;
  const out = await updateItem(
    deps,
    keys.domain.item(d.teamId, d.id),
    { set: { tracking_host_verified: host } },
    { exists: true },
  );
  if (!out) throw notFound('Domain');
  const next = domainFromItem(out);
  await recordEvent(deps, d.teamId, 'domain.updated', domainEventData(next, deps.config));
  return next;
};

/** Reads a domain; a pending one (or a waiting Tracking record) is re-checked so the status is live. */
export const getDomain = async (deps: Deps, teamId: string, id: string): Promise<Domain> => {
  const d = await loadDomain(deps, teamId, id);
  return checkTracking(deps, d.status === 'pending' ? await refresh(deps, d) : d);
};

/** Starts (or repeats) verification of a domain and of its Tracking record. */
export const verifyDomain = async (deps: Deps, teamId: string, id: string): Promise<Domain> => {
  const d = await loadDomain(deps, teamId, id);
  if (d.status === 'verified') return checkTracking(deps, d);
  return checkTracking(deps, await refresh(deps, await setStatus(deps, d, 'pending')));
};

/** A page of the team's domains, newest first. */
export const listDomains = async (deps: Deps, teamId: string, page: Pagination): Promise<Page<Domain>> => {
  const { items, hasMore } = await queryPage(
    deps,
    { pk: keys.domain.partition(teamId), prefix: keys.domain.prefix },
    page,
  );
  return { items: items.map(domainFromItem), hasMore };
};

const mailboxesRemain = (d: Domain) =>
  new ApiError(
    'conflict',
    `The domain ${d.name} has ${d.mailboxCount} mailbox(es): delete them first (receiving cannot be turned off, nor the domain deleted, while mail to them is accepted).`,
  );

/** Changes the tracking switches and receiving of a domain. */
export const updateDomain = async (
  deps: Deps,
  teamId: string,
  id: string,
  change: UpdateDomainRequest,
): Promise<Domain> => {
  const d = await loadDomain(deps, teamId, id);
  const receiving =
    change.capabilities?.receiving === undefined ? undefined : change.capabilities.receiving === 'enabled';
  const set = Object.fromEntries(
    Object.entries({
      open_tracking: change.open_tracking,
      click_tracking: change.click_tracking,
      tracking_subdomain: change.tracking_subdomain,
      ...(receiving === undefined || receiving === d.receiving
        ? {}
        : { receiving, receiving_region: receiving ? deps.config.AWS_REGION : null }),
    }).filter(([, value]) => value !== undefined),
  );
  if (Object.keys(set).length === 0) return d;
  // Receiving stays on while a mailbox lives on the domain (its mail would have nowhere to go).
  const when =
    receiving === false
      ? {
          and: [
            { exists: true },
            {
              or: [
                { attr: 'mailbox_count', absent: true as const },
                { attr: 'mailbox_count', lt: 1 },
              ],
            },
          ],
        }
      : { exists: true };
  const out = await updateItem(deps, keys.domain.item(teamId, id), { set }, when);
  if (!out) {
    if (receiving === false && (await loadDomain(deps, teamId, id)).mailboxCount > 0) throw mailboxesRemain(d);
    throw notFound('Domain');
  }
  const next = domainFromItem(out);
  await recordEvent(deps, teamId, 'domain.updated', domainEventData(next, deps.config));
  return next;
};

/**
 * Deletes a domain, lets go of its name, and removes the provider identity only when this
 * domain held the name (no other team's sending depends on it).
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
    { put: deleted.item },
  ]);
  if (!removed.ok) {
    if (removed.failed === 0 && (await loadDomain(deps, teamId, id)).mailboxCount > 0) throw mailboxesRemain(d);
    throw notFound('Domain');
  }
  await publishEvents(deps, [deleted.record]);
  // A domain added before names were claimed holds its identity alone, as it always did.
  if (!claim || holds) await deps.identities.remove({ domain: d.name, region: d.region });
  return d;
};
