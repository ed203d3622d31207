import * as v from 'valibot';
import { apiRoute } from '@mailstack/core/http/api-route';
import { registerClient, registrationResponse } from '@mailstack/core/domain/oauth/clients';
import { ClientRegistration } from '@mailstack/core/schemas/oauth';
import { oauthJson, protocolStep, sourceIpOf } from './respond.ts';

/**
 * POST /oauth/register: dynamic client registration (RFC 7591) of a public client. Redirect
 * URIs https or loopback http only (400 invalid_redirect_uri); 10 per 15 minutes per address (429).
 */
export const handler = apiRoute({
  access: 'public',
  status: 201,
  response: ClientRegistration,
  body: v.unknown(),
  errorFormat: 'oauth',
  errors: ['invalid_parameter', 'rate_limit_exceeded'],
  handler: async ({ deps, body, event }) =>
    protocolStep(async () => oauthJson(201, registrationResponse(await registerClient(deps, body, sourceIpOf(event))))),
});
