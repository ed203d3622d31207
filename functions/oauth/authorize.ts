import * as v from 'valibot';
import { apiRoute, RawResponse } from '@mailstack/core/http/api-route';
import { beginAuthorization } from '@mailstack/core/domain/oauth/begin-authorization';
import { refusalPage } from './respond.ts';

const Param = v.optional(v.string());

/**
 * GET /oauth/authorize: the authorization request (RFC 6749 §4.1.1 with PKCE S256 and
 * `resource`). A good request goes to the dashboard's sign-in and consent screen; a bad one back
 * to the client with an error; an unknown client or unregistered redirect URI gets a page.
 */
export const handler = apiRoute({
  access: 'public',
  response: v.never(),
  responseFormat: 'redirect',
  status: 302,
  errorFormat: 'oauth',
  query: v.object({
    response_type: Param,
    client_id: Param,
    redirect_uri: Param,
    code_challenge: Param,
    code_challenge_method: Param,
    state: Param,
    scope: Param,
    resource: Param,
  }),
  handler: async ({ deps, query }) => {
    const outcome = await beginAuthorization(deps, query);
    if ('refuse' in outcome) return refusalPage(outcome.refuse);
    return new RawResponse({
      statusCode: 302,
      headers: { location: outcome.redirect, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
      body: '',
    });
  },
});
