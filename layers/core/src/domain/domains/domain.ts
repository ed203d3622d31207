import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem } from '../../table/ops.ts';
import { notFound } from '../../errors/api-error.ts';

/** Domain verification states (the Resend set). */
export type DomainStatus = 'not_started' | 'pending' | 'verified' | 'failed';

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
  readonly dkimTokens: readonly string[];
  /** Receiving enabled: mail to its mailboxes is accepted (the domain publishes the inbound MX). */
  readonly receiving: boolean;
  /** The region whose inbound endpoint the MX record names (the stack's receiving region). */
  readonly receivingRegion: string | null;
  /** How many mailboxes the domain has (receiving cannot be turned off, nor the domain deleted, while it has any). */
  readonly mailboxCount: number;
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
  dkimTokens: i.dkim_tokens ?? [],
  receiving: i.receiving === true,
  receivingRegion: i.receiving_region ?? null,
  mailboxCount: Number(i.mailbox_count ?? 0),
});

/** The MX host of the provider's inbound endpoint in a region (SES receiving). */
export const inboundMxHost = (region: string): string => `inbound-smtp.${region}.amazonaws.com`;

/**
 * The DNS records a domain must publish (DKIM CNAMEs; SPF MX and TXT on the return-path
 * subdomain; with receiving, the inbound MX on the domain itself).
 */
export const dnsRecords = (d: Domain) => {
  const status = d.status === 'verified' ? 'verified' : d.status === 'failed' ? 'failed' : d.status === 'pending' ? 'pending' : 'not_started';
  return [
    { record: 'SPF', name: d.returnPath, type: 'MX', ttl: 'Auto', status, value: `feedback-smtp.${d.region}.amazonses.com`, priority: 10 },
    { record: 'SPF', name: d.returnPath, type: 'TXT', ttl: 'Auto', status, value: '"v=spf1 include:amazonses.com ~all"', priority: null },
    ...d.dkimTokens.map((token) => ({ record: 'DKIM', name: `${token}._domainkey`, type: 'CNAME', ttl: 'Auto', status, value: `${token}.dkim.amazonses.com`, priority: null })),
    ...(d.receiving ? [{ record: 'Receiving', name: '@', type: 'MX', ttl: 'Auto', status, value: inboundMxHost(d.receivingRegion ?? d.region), priority: 10 }] : []),
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
export const domainEventData = (d: Domain) => ({ id: d.id, name: d.name, status: d.status, created_at: d.createdAt, region: d.region, records: dnsRecords(d) });

/** The full domain object, with its DNS records. */
export const domainView = (d: Domain) => ({ object: 'domain' as const, ...domainSummary(d), records: dnsRecords(d) });

/** Reads a team's domain by id; another team's id answers 404. */
export const loadDomain = async (deps: Deps, teamId: string, domainId: string): Promise<Domain> => {
  const item = await getItem(deps, keys.domain.item(teamId, domainId));
  if (!item) throw notFound('Domain');
  return domainFromItem(item);
};

/** Finds a team's domain by name (used by the send rules); undefined when the team has none. */
export const findDomainByName = async (deps: Deps, teamId: string, name: string): Promise<Domain | undefined> => {
  const guard = await getItem(deps, keys.domain.nameGuard(teamId, name), false);
  if (!guard) return undefined;
  const item = await getItem(deps, keys.domain.item(teamId, guard.domain_id), false);
  return item ? domainFromItem(item) : undefined;
};
