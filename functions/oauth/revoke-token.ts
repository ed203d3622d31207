import * as v from 'valibot';
import { apiRoute } from '@mailstack/core/http/api-route';
import { revokeToken } from '@mailstack/core/domain/oauth/tokens';
import { OAuthError } from '@mailstack/core/domain/oauth/oauth-error';
import { oauthJson, protocolStep } from './respond.ts';

/** POST /oauth/revoke (RFC 7009): a refresh token revokes its grant, an access token stops; unknown tokens answer 200 too. */
export const handler = apiRoute({
  access: 'public',
  response: v.object({}),
  bodyFormat: 'form',
  errorFormat: 'oauth',
  errors: ['invalid_parameter'],
  handler: async ({ deps, body }) =>
    protocolStep(async () => {
      const form = body as URLSearchParams;
      const token = form.get('token');
      const clientId = form.get('client_id');
      if (!token || !clientId)
        throw new OAuthError('invalid_request', 'token and client_id are required (form-encoded).');
      await revokeToken(deps, token, clientId);
      return oauthJson(200, {});
    }),
});
