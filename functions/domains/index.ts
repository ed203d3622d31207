import { dispatch } from '@mailstack/core/http/dispatch';
import { areaRoutes } from '../routes.ts';
import { handler as createDomain } from './create-domain.ts';
import { handler as listDomains } from './list-domains.ts';
import { handler as getDomain } from './get-domain.ts';
import { handler as updateDomain } from './update-domain.ts';
import { handler as deleteDomain } from './delete-domain.ts';
import { handler as verifyDomain } from './verify-domain.ts';
import { handler as createDomainClaim } from './create-domain-claim.ts';
import { handler as getDomainClaim } from './get-domain-claim.ts';
import { handler as verifyDomainClaim } from './verify-domain-claim.ts';

/** The domains Lambda: every /domains route. Its routes, and the handler answering each, come from the route manifest. */
export const handler = dispatch(
  areaRoutes('domains', {
    'create-domain': createDomain,
    'list-domains': listDomains,
    'get-domain': getDomain,
    'update-domain': updateDomain,
    'delete-domain': deleteDomain,
    'verify-domain': verifyDomain,
    'create-domain-claim': createDomainClaim,
    'get-domain-claim': getDomainClaim,
    'verify-domain-claim': verifyDomainClaim,
  }),
);
