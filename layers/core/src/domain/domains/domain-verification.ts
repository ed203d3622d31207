import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { updateItem } from '../../table/ops.ts';
import { notFound } from '../../errors/api-error.ts';
import {
  domainEventData,
  domainFromItem,
  loadDomain,
  needsTrackingRecord,
  trackingHost,
  type Domain,
  type DomainStatus,
} from './domain.ts';
import { canonicalHostName } from '../../ports/dns.ts';
import { recordEvent } from '../events/record-event.ts';

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
  // A claim's placeholder verifies through its claim (POST /domains/{id}/claim/verify); a domain claimed away, never.
  if (d.claimPlaceholder || d.claimedAwayAt) return d;
  return checkTracking(deps, await refresh(deps, await setStatus(deps, d, 'pending')));
};
