import { apiRoute } from '@mailstack/core/http/api-route';
import { exchangeCode } from '@mailstack/core/domain/oauth/exchange-code';
import { refreshTokens } from '@mailstack/core/domain/oauth/tokens';
import { OAuthError } from '@mailstack/core/domain/oauth/oauth-error';
import { TokenResponse } from '@mailstack/core/schemas/oauth';
import { oauthJson, protocolStep } from './respond.ts';

/**
 * POST /oauth/token (form-encoded, RFC 6749 §3.2): `authorization_code` with the PKCE verifier,
 * or `refresh_token` (rotated; a reused one revokes the grant). Public clients send client_id.
 */
export const handler = apiRoute({
  access: 'public',
  response: TokenResponse,
  bodyFormat: 'form',
  errorFormat: 'oauth',
  errors: ['invalid_parameter'],
  handler: async ({ deps, body }) =>
    protocolStep(async () => {
      const form = body as URLSearchParams;
      const field = (name: string) => form.get(name) ?? undefined;
      const grantType = field('grant_type');
      if (grantType === 'authorization_code') {
        return oauthJson(
          200,
          await exchangeCode(deps, {
            code: field('code'),
            redirectUri: field('redirect_uri'),
            clientId: field('client_id'),
            codeVerifier: field('code_verifier'),
            resource: field('resource'),
          }),
        );
      }
      if (grantType === 'refresh_token') {
        const refreshToken = field('refresh_token');
        const clientId = field('client_id');
        if (!refreshToken || !clientId)
          throw new OAuthError(
            'invalid_request',
            'refresh_token and client_id are required for grant_type=refresh_token.',
          );
        return oauthJson(200, await refreshTokens(deps, refreshToken, clientId, field('resource'), field('scope')));
      }
      throw new OAuthError(
        grantType ? 'unsupported_grant_type' : 'invalid_request',
        grantType
          ? `grant_type ${JSON.stringify(grantType.slice(0, 100))} is not supported: use authorization_code or refresh_token.`
          : 'grant_type is required (authorization_code or refresh_token), form-encoded.',
      );
    }),
});
