import * as v from 'valibot';
import { Id, Timestamp } from './common.ts';
import { DOMAIN_STATUSES } from '../domain/domains/domain.ts';
import { BLOCKED_REASONS, CLAIM_STATUSES } from '../domain/domains/domain-claim.ts';

const Hostname = v.pipe(
  v.string('must be a string.'),
  v.trim(),
  v.toLowerCase(),
  v.maxLength(253, 'must be at most 253 characters.'),
  v.regex(/^(?=.{1,253}$)(?!-)([a-z0-9-]{1,63}(?<!-)\.)+[a-z]{2,63}$/, 'must be a domain name such as example.com.'),
);

const Capabilities = v.strictObject({
  sending: v.optional(v.literal('enabled', 'sending can only be `enabled`: a domain exists to send.')),
  receiving: v.optional(
    v.picklist(
      ['enabled', 'disabled'],
      "must be `enabled` (mail to the domain's mailboxes is accepted; the records gain the inbound MX) or `disabled`.",
    ),
  ),
});

const Label = v.pipe(
  v.string(),
  v.regex(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i, 'must be a single DNS label such as `send`.'),
);

/** POST /domains. `tls` is not supported (the provider negotiates TLS opportunistically). */
export const CreateDomainRequest = v.strictObject({
  name: Hostname,
  region: v.optional(v.string('must be a string.')),
  custom_return_path: v.optional(Label),
  open_tracking: v.optional(v.boolean('must be true or false.')),
  click_tracking: v.optional(v.boolean('must be true or false.')),
  capabilities: v.optional(Capabilities),
  tracking_subdomain: v.optional(Label),
});
export type CreateDomainRequest = v.InferOutput<typeof CreateDomainRequest>;

/** PATCH /domains/{id}: the tracking switches and receiving. */
export const UpdateDomainRequest = v.strictObject({
  open_tracking: v.optional(v.boolean('must be true or false.')),
  click_tracking: v.optional(v.boolean('must be true or false.')),
  capabilities: v.optional(Capabilities),
  tracking_subdomain: v.optional(Label),
});
export type UpdateDomainRequest = v.InferOutput<typeof UpdateDomainRequest>;

const RecordStatus = v.picklist([...DOMAIN_STATUSES, 'temporary_failure']);
/** One DNS record a domain must publish. */
export const DomainRecord = v.object({
  record: v.picklist(['SPF', 'DKIM', 'Receiving', 'Tracking']),
  name: v.string(),
  type: v.picklist(['MX', 'TXT', 'CNAME']),
  ttl: v.string(),
  status: RecordStatus,
  value: v.string(),
  priority: v.optional(v.number()),
});
/** A domain as lists show it (no records). */
export const DomainSummary = v.object({
  id: Id,
  name: v.string(),
  status: v.picklist(DOMAIN_STATUSES),
  created_at: Timestamp,
  region: v.string(),
  capabilities: v.object({
    sending: v.picklist(['enabled', 'disabled']),
    receiving: v.picklist(['enabled', 'disabled']),
  }),
  open_tracking: v.boolean(),
  click_tracking: v.boolean(),
  tracking_subdomain: v.nullable(v.string()),
});
/** POST /domains: the domain with its records (no `object`, as the reference SDK types it). */
export const CreatedDomain = v.object({ ...DomainSummary.entries, records: v.array(DomainRecord) });
/** GET /domains/{id} */
export const DomainObject = v.object({ object: v.literal('domain'), ...CreatedDomain.entries });

/** POST /domains/claim: the create-domain body without capabilities (and tls). */
export const CreateDomainClaimRequest = v.strictObject({
  name: Hostname,
  region: v.optional(v.string('must be a string.')),
  custom_return_path: v.optional(Label),
  open_tracking: v.optional(v.boolean('must be true or false.')),
  click_tracking: v.optional(v.boolean('must be true or false.')),
  tracking_subdomain: v.optional(Label),
});

/** A domain claim (the reference's DomainClaim): POST /domains/claim, GET /domains/{id}/claim, POST .../claim/verify. */
export const DomainClaimObject = v.object({
  object: v.literal('domain_claim'),
  id: Id,
  name: v.string(),
  status: v.picklist(CLAIM_STATUSES),
  domain_id: v.nullable(Id),
  region: v.nullable(v.string()),
  record: v.object({ type: v.literal('TXT'), name: v.string(), value: v.string(), ttl: v.literal('Auto') }),
  blocked_reason: v.nullable(v.picklist(BLOCKED_REASONS)),
  failure_reason: v.nullable(v.string()),
  created_at: Timestamp,
  expires_at: Timestamp,
});
