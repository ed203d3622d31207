import { MailstackError } from '../../errors/mailstack-error.ts';

/**
 * A refusal of the authorization server in its protocols' own terms: the `error` code of
 * RFC 6749 §5.2 (token endpoint), §4.1.2.1 (authorization redirect) or RFC 7591 §3.2.2
 * (registration), a description for the developer, and the HTTP status. The HTTP layer adds the
 * catalog name of the status so the body is also a spec error body.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'invalid_target'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'too_many_requests';

export class OAuthError extends MailstackError {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status: 400 | 429 = 400,
    readonly retryAfter?: number,
    options: { cause?: unknown } = {},
  ) {
    super(description, options);
  }
}

/** True for an OAuthError. */
export const isOAuthError = (e: unknown): e is OAuthError => e instanceof OAuthError;
