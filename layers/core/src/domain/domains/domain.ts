import type { Deps } from '../../runtime/deps.ts';
import type { Config } from '../../runtime/config.ts';
import { keys } from '../../table/keys.ts';
import { getItem } from '../../table/ops.ts';
import { cachedItem } from '../../table/item-cache.ts';
import { notFound } from '../../errors/api-error.ts';

/** Domain verification states (the Resend set); a DNS record's status adds `temporary_failure`. */
export const DOMAIN_STATUSES = ['not_started', 'pending', 'verified', 'failed'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

/** A sending domain of a team, in one delivery region. */
export interface Domain {
  readonly id: string;
  readonly teamId: string;
  readonly name: string;
  readonly region: string;
  readonly status: DomainStatus;
  readonly createdAt: string;
  readonly openTracking: boolean;
  readonly clickTracking: boolean;
  readonly returnPath: string;
  readonly trackingSubdomain: string | null;
  /** The tracking host whose CNAME was last seen pointing at the deployment's tracking target; null before one verified. */
  readonly trackingHostVerified: string | null;
  readonly dkimTokens: readonly string[];
  /** Receiving enabled: mail to its mailboxes is accepted (the domain publishes the inbound MX). */
  readonly receiving: boolean;
  /** The region whose inbound endpoint the MX record names (the stack's receiving region). */
  readonly receivingRegion: string | null;
  /** How many mailboxes the domain has (receiving cannot be turned off, nor the domain deleted, while it has any). */
  readonly mailboxCount: number;
  /** The placeholder a claim made: it holds no name and no identity (and never verifies) until the claim completes. */
  readonly claimPlaceholder: boolean;
  /** When another team's claim took the name (ISO time): the domain no longer sends and never verifies again. */
  readonly claimedAwayAt: string | null;
  /** When this team's claim moved the domain to it (ISO time); null for a domain added with POST /domains. */
  readonly claimedAt: string | null;
}

/** Item -> Domain. */
export const domainFromItem = (i: Record<string, any>): Domain => ({
  id: i.id,
  teamId: i.team_id,
  name: i.name,
  region: i.region,
  status: i.status,
  createdAt: i.created_at,
  openTracking: i.open_tracking === true,
  clickTracking: i.click_tracking === true,
  returnPath: i.return_path ?? 'send',
  trackingSubdomain: i.tracking_subdomain ?? null,
  trackingHostVerified: i.tracking_host_verified ?? null,
  dkimTokens: i.dkim_tokens ?? [],
  receiving: i.receiving === true,
  receivingRegion: i.receiving_region ?? null,
  mailboxCount: Number(i.mailbox_count ?? 0),
  claimPlaceholder: i.claim_placeholder === true,
  claimedAwayAt: i.claimed_away_at ?? null,
  claimedAt: i.claimed_at ?? null,
});

/** The MX host of the provider's inbound endpoint in a region (SES receiving). */
const inboundMxHost = (region: string): string => `inbound-smtp.${region}.amazonaws.com`;

/** The tracking subdomain of a domain that names none (Resend's example name). */
const DEFAULT_TRACKING_SUBDOMAIN = 'links';

/** The deployment settings the tracking host depends on. */
export type TrackingConfig = Pick<Config, 'TRACKING_CNAME_TARGET' | 'PUBLIC_BASE_URL'>;

/** The subdomain a domain's Tracking record names. */
const trackingSubdomainOf = (d: Domain): string => d.trackingSubdomain ?? DEFAULT_TRACKING_SUBDOMAIN;

/** The host a domain's tracking links use once its Tracking record verifies: `<tracking_subdomain>.<domain>`. */
export const trackingHost = (d: Domain): string => `${trackingSubdomainOf(d)}.${d.name}`;

/** Whether the domain needs a Tracking record: the deployment serves tracking hosts and the domain tracks opens or clicks. */
export const needsTrackingRecord = (d: Domain, config: TrackingConfig): boolean =>
  config.TRACKING_CNAME_TARGET !== '' && (d.openTracking || d.clickTracking);

/**
 * Where a domain's tracking links point: its verified tracking host when the deployment serves
 * tracking hosts (after a change of subdomain, the previous host until the new one verifies),
 * else the API origin.
 */
export const trackingOrigin = (d: Domain, config: TrackingConfig): string =>
  config.TRACKING_CNAME_TARGET !== '' && d.trackingHostVerified
    ? `https://${d.trackingHostVerified}`
    : config.PUBLIC_BASE_URL.replace(/\/$/, '');

/**
 * The DNS records a domain must publish (DKIM CNAMEs; SPF MX and TXT on the return-path
 * subdomain; with receiving, the inbound MX on the domain itself; with open or click tracking on
 * a deployment that serves tracking hosts, the Tracking CNAME of its tracking subdomain).
 */
/** One DNS record a domain must publish; `priority` only on MX records, as the reference answers them. */
interface DnsRecord {
  readonly record: string;
  readonly name: string;
  readonly type: string;
  readonly ttl: string;
  readonly status: string;
  readonly value: string;
  readonly priority?: number;
}

export const dnsRecords = (d: Domain, config: TrackingConfig): DnsRecord[] => {
  const status =
    d.status === 'verified'
      ? 'verified'
      : d.status === 'failed'
        ? 'failed'
        : d.status === 'pending'
          ? 'pending'
          : 'not_started';
  // The Tracking record has its own state: verified once its CNAME was seen, else waiting with the domain.
  const trackingStatus =
    d.trackingHostVerified === trackingHost(d) ? 'verified' : d.status === 'not_started' ? 'not_started' : 'pending';
  return [
    {
      record: 'SPF',
      name: d.returnPath,
      type: 'MX',
      ttl: 'Auto',
      status,
      value: `feedback-smtp.${d.region}.amazonses.com`,
      priority: 10,
    },
    {
      record: 'SPF',
      name: d.returnPath,
      type: 'TXT',
      ttl: 'Auto',
      status,
      value: '"v=spf1 include:amazonses.com ~all"',
    },
    ...d.dkimTokens.map((token) => ({
      record: 'DKIM',
      name: `${token}._domainkey`,
      type: 'CNAME',
      ttl: 'Auto',
      status,
      value: `${token}.dkim.amazonses.com`,
    })),
    ...(d.receiving
      ? [
          {
            record: 'Receiving',
            name: '@',
            type: 'MX',
            ttl: 'Auto',
            status,
            value: inboundMxHost(d.receivingRegion ?? d.region),
            priority: 10,
          },
        ]
      : []),
    ...(needsTrackingRecord(d, config)
      ? [
          {
            record: 'Tracking',
            name: trackingSubdomainOf(d),
            type: 'CNAME',
            ttl: 'Auto',
            status: trackingStatus,
            value: config.TRACKING_CNAME_TARGET,
          },
        ]
      : []),
  ];
};

/** The list row of a domain. */
export const domainSummary = (d: Domain) => ({
  id: d.id,
  name: d.name,
  status: d.status,
  created_at: d.createdAt,
  region: d.region,
  capabilities: { sending: 'enabled', receiving: d.receiving ? 'enabled' : 'disabled' },
  open_tracking: d.openTracking,
  click_tracking: d.clickTracking,
  tracking_subdomain: d.trackingSubdomain,
});

/** The `data` of domain.* events (reference §5.3): id, name, status, created_at, region, records. */
export const domainEventData = (d: Domain, config: TrackingConfig) => ({
  id: d.id,
  name: d.name,
  status: d.status,
  created_at: d.createdAt,
  region: d.region,
  records: dnsRecords(d, config),
});

/** The full domain object, with its DNS records. */
export const domainView = (d: Domain, config: TrackingConfig) => ({
  object: 'domain' as const,
  ...domainSummary(d),
  records: dnsRecords(d, config),
});

/** Reads a team's domain by id; another team's id answers 404. */
export const loadDomain = async (deps: Deps, teamId: string, domainId: string): Promise<Domain> => {
  const item = await getItem(deps, keys.domain.item(teamId, domainId));
  if (!item) throw notFound('Domain');
  return domainFromItem(item);
};

/**
 * A team's domain by name as the send path reads it: from this process's copies of the name
 * guard and the domain row while they are fresh (table/item-cache.ts; LOOKUP_STALENESS_MS).
 */
export const findSendingDomain = async (deps: Deps, teamId: string, name: string): Promise<Domain | undefined> => {
  const guard = await cachedItem(deps, keys.domain.nameGuard(teamId, name));
  if (!guard) return undefined;
  const item = await cachedItem(deps, keys.domain.item(teamId, guard.domain_id));
  return item ? domainFromItem(item) : undefined;
};

/** Finds a team's domain by name; undefined when the team has none. */
export const findDomainByName = async (deps: Deps, teamId: string, name: string): Promise<Domain | undefined> => {
  const guard = await getItem(deps, keys.domain.nameGuard(teamId, name), false);
  if (!guard) return undefined;
  const item = await getItem(deps, keys.domain.item(teamId, guard.domain_id), false);
  return item ? domainFromItem(item) : undefined;
};
