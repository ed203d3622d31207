import { dispatch } from '@mailstack/core/http/dispatch';
import { handler as createDomain } from './create-domain.ts';
import { handler as listDomains } from './list-domains.ts';
import { handler as getDomain } from './get-domain.ts';
import { handler as updateDomain } from './update-domain.ts';
import { handler as deleteDomain } from './delete-domain.ts';
import { handler as verifyDomain } from './verify-domain.ts';

/** The domains Lambda: every /domains route. */
export const handler = dispatch({
  'POST /domains': createDomain,
  'GET /domains': listDomains,
  'GET /domains/{id}': getDomain,
  'PATCH /domains/{id}': updateDomain,
  'DELETE /domains/{id}': deleteDomain,
  'POST /domains/{id}/verify': verifyDomain,
});
