import { RawResponse } from '@mailstack/core/http/api-route';
import { html } from '@mailstack/core/http/respond';
import { wholeRetryAfter } from '@mailstack/core/errors/api-error';
import type { ApiEvent } from '@mailstack/core/http/types';
import { isOAuthError, type OAuthError } from '@mailstack/core/domain/oauth/oauth-error';
import { html as escaped } from 'hono/html';

/** OAuth answers are never cached (RFC 6749 §5.1). */
const NO_STORE = { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' };

/** A JSON answer of the authorization server. */
export const oauthJson = (statusCode: number, body: unknown): RawResponse =>
  new RawResponse({ statusCode, headers: NO_STORE, body: JSON.stringify(body) });

/**
 * A refusal in both vocabularies: the protocol's `error` and `error_description` for OAuth
 * clients, and the spec's `statusCode, name, message` (the catalog name of the status).
 */
const oauthFailure = (e: OAuthError): RawResponse =>
  new RawResponse({
    statusCode: e.status,
    headers: {
      ...NO_STORE,
      ...(e.retryAfter !== undefined ? { 'Retry-After': String(wholeRetryAfter(e.retryAfter)) } : {}),
    },
    body: JSON.stringify({
      statusCode: e.status,
      name: e.status === 429 ? 'rate_limit_exceeded' : 'invalid_parameter',
      message: e.description,
      error: e.error,
      error_description: e.description,
    }),
  });

/** Runs a protocol step, answering its OAuth refusals in the protocol's shape. */
export const protocolStep = async (step: () => Promise<RawResponse>): Promise<RawResponse> => {
  try {
    return await step();
  } catch (error) {
    if (isOAuthError(error)) return oauthFailure(error);
    throw error;
  }
};

/** A refusal shown to the person in the browser (nothing is sent to an unchecked redirect URI). */
export const refusalPage = (message: string): RawResponse =>
  new RawResponse(
    html(
      400,
      // hono's template escapes the message; with no asynchronous part it renders at once.
      String(escaped`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorization refused · mailstack</title></head>
<body><main><h1>This authorization request was refused</h1><p>${message}</p><p>Nothing was sent back to the application. Ask its developer to fix its OAuth settings.</p></main></body></html>`),
    ),
  );

/** The client's address (API Gateway's source IP; the socket's locally). */
export const sourceIpOf = (event: ApiEvent): string => event.requestContext?.http?.sourceIp ?? 'unknown';
