import { randomBytes } from 'node:crypto';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem } from '../../table/ops.ts';
import { CLAIM_EXPIRY_MS } from '../../limits.ts';

/** A claim's statuses and blocked reasons: the reference's. */
export const CLAIM_STATUSES = [
  'pending',
  'verified',
  'completed',
  'blocked',
  'expired',
  'superseded',
  'canceled',
  'failed',
] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];
export const BLOCKED_REASONS = ['grace_period', 'recent_owner_activity', 'pending_scheduled_emails'] as const;
export type BlockedReason = (typeof BLOCKED_REASONS)[number];
/** Statuses a claim never leaves. */
export const FINAL: readonly ClaimStatus[] = ['completed', 'expired', 'superseded', 'canceled', 'failed'];

/** The TXT value a claim asks for: `mailstack-domain-verification=<token>` on the domain itself. */
export const TXT_PREFIX = 'mailstack-domain-verification=';

/** What a claim asks for the domain it will make (the create-domain settings). */
export interface ClaimSettings {
  readonly region: string;
  readonly returnPath: string;
  readonly openTracking: boolean;
  readonly clickTracking: boolean;
  readonly trackingSubdomain: string | null;
}

/** A team's claim of a domain another holds. */
export interface Claim extends ClaimSettings {
  readonly id: string;
  readonly teamId: string;
  readonly domainId: string;
  readonly name: string;
  readonly status: ClaimStatus;
  readonly token: string;
  readonly blockedReason: BlockedReason | null;
  readonly failureReason: string | null;
  readonly createdAt: string;
  readonly expiresAt: string;
  /** When the TXT record was found. */
  readonly provenAt: string | null;
}

/** The body of POST /domains/claim (the create-domain body without capabilities and tls). */
export interface ClaimRequest {
  readonly name: string;
  readonly region?: string | undefined;
  readonly custom_return_path?: string | undefined;
  readonly open_tracking?: boolean | undefined;
  readonly click_tracking?: boolean | undefined;
  readonly tracking_subdomain?: string | undefined;
}

const claimFromItem = (i: Record<string, any>): Claim => ({
  id: i.id,
  teamId: i.team_id,
  domainId: i.domain_id,
  name: i.name,
  status: i.status,
  token: i.token,
  blockedReason: i.blocked_reason ?? null,
  failureReason: i.failure_reason ?? null,
  createdAt: i.created_at,
  expiresAt: i.expires_at,
  provenAt: i.proven_at ?? null,
  region: i.region,
  returnPath: i.return_path,
  openTracking: i.open_tracking === true,
  clickTracking: i.click_tracking === true,
  trackingSubdomain: i.tracking_subdomain ?? null,
});

export const claimItem = (c: Claim) => ({
  ...keys.domain.claimOf(c.teamId, c.domainId),
  type: 'domain_claim_request',
  id: c.id,
  team_id: c.teamId,
  domain_id: c.domainId,
  name: c.name,
  status: c.status,
  token: c.token,
  blocked_reason: c.blockedReason,
  failure_reason: c.failureReason,
  created_at: c.createdAt,
  expires_at: c.expiresAt,
  proven_at: c.provenAt,
  region: c.region,
  return_path: c.returnPath,
  open_tracking: c.openTracking,
  click_tracking: c.clickTracking,
  tracking_subdomain: c.trackingSubdomain,
});

/** The DomainClaim object of the reference. */
export const claimView = (c: Claim) => ({
  object: 'domain_claim' as const,
  id: c.id,
  name: c.name,
  status: c.status,
  domain_id: c.domainId as string | null,
  region: c.region as string | null,
  record: { type: 'TXT' as const, name: c.name, value: `${TXT_PREFIX}${c.token}`, ttl: 'Auto' as const },
  blocked_reason: c.blockedReason,
  failure_reason: c.failureReason,
  created_at: c.createdAt,
  expires_at: c.expiresAt,
});

export const iso = (ms: number) => new Date(ms).toISOString();

export const sameSettings = (a: ClaimSettings, b: ClaimSettings) =>
  a.region === b.region &&
  a.returnPath === b.returnPath &&
  a.openTracking === b.openTracking &&
  a.clickTracking === b.clickTracking &&
  a.trackingSubdomain === b.trackingSubdomain;

/** A new pending claim with a fresh random token. */
export const newClaim = (
  deps: Deps,
  teamId: string,
  domainId: string,
  name: string,
  settings: ClaimSettings,
): Claim => {
  const now = deps.clock.now();
  return {
    id: deps.ids.next(),
    teamId,
    domainId,
    name,
    status: 'pending',
    token: randomBytes(24).toString('base64url'),
    blockedReason: null,
    failureReason: null,
    createdAt: iso(now),
    expiresAt: iso(now + CLAIM_EXPIRY_MS),
    provenAt: null,
    ...settings,
  };
};

/** A team's latest claim by its placeholder domain; undefined when the team has none. */
export const loadClaimItem = async (deps: Deps, teamId: string, domainId: string): Promise<Claim | undefined> => {
  const item = await getItem(deps, keys.domain.claimOf(teamId, domainId));
  return item ? claimFromItem(item) : undefined;
};
