/**
 * The one table of deliberate differences from the reference API's OpenAPI description: every
 * reference operation (or request field) we do not serve, with the reason from the service
 * spec. `test/contract/openapi.test.ts` compares the two documents and fails on any difference
 * missing here, and on any entry here that is no longer a difference, so a route that starts
 * serving an operation removes its row. Paths are in the reference's spelling.
 */
export interface ReferenceDifference {
  readonly operations: readonly string[];
  /** `deliberate`: the spec decides against it; `not yet`: a capability of the spec still to be built. */
  readonly kind: 'deliberate' | 'not yet';
  readonly reason: string;
  /** The reason in a few words, for the README's SDK coverage table. */
  readonly summary: string;
}

export const REFERENCE_DIFFERENCES: readonly ReferenceDifference[] = [
  {
    operations: ['POST /api-keys'],
    kind: 'deliberate',
    reason:
      'Spec §5: keys are created only by a person; no endpoint mints keys. The route answers 403 `forbidden` naming the operator CLI (`npm run admin -- keys create`).',
    summary: 'keys are made by a person (operator CLI or dashboard)',
  },
  {
    operations: ['GET /api-keys', 'PATCH /api-keys/{api_key_id}', 'DELETE /api-keys/{api_key_id}'],
    kind: 'deliberate',
    reason:
      'Spec §4 leaves API key management "not shown": keys are listed and revoked with the operator CLI (`npm run admin -- keys list|revoke`).',
    summary: 'key management is the operator CLI',
  },
  {
    operations: ['GET /contacts/imports', 'POST /contacts/imports', 'GET /contacts/imports/{id}'],
    kind: 'deliberate',
    reason:
      'Spec §4 Contacts: "There is no CSV import endpoint; bulk loading uses the batch endpoint" (POST /contacts/batch, 1 to 1,000 contacts).',
    summary: 'no CSV import: use POST /contacts/batch',
  },
  {
    operations: ['POST /domains body.tls', 'PATCH /domains/{domain_id} body.tls'],
    kind: 'deliberate',
    reason:
      'Spec §4 Domains: "Unsupported fields (for example tls on update) give 422"; the provider negotiates TLS opportunistically.',
    summary: '`tls` is refused (opportunistic TLS)',
  },
  {
    operations: ['PATCH /contacts/{id} body.email'],
    kind: 'deliberate',
    reason:
      "Spec §4 Contacts: the update body is first_name, last_name, unsubscribed and properties; the address names the contact (path by id or email), so a body `email` is accepted only when it repeats the path's address.",
    summary: 'the address names the contact',
  },
  {
    operations: ['POST /segments body.filter'],
    kind: 'deliberate',
    reason:
      'Spec §1: a segment holds the contacts added to it (audiences are its aliases); filter rules are not a capability, and unsupported input is rejected with 422.',
    summary: 'segment filters are not supported',
  },
];
