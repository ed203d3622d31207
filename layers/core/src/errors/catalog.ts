/**
 * The error catalog of spec §7: every error name the API answers with, and its HTTP status.
 * One table, read by the HTTP error mapper, the MCP tool wrapper and the SMTP reply mapper.
 */
export const ERROR_STATUS = {
  invalid_parameter: 400,
  invalid_payload: 400,
  invalid_idempotency_key: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  restricted_api_key: 403,
  plan_limit_reached: 403,
  forbidden: 403,
  team_suspended: 403,
  sending_paused: 403,
  broadcasts_paused: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  invalid_idempotent_request: 409,
  concurrent_idempotent_requests: 409,
  payload_too_large: 413,
  validation_error: 422,
  all_recipients_suppressed: 422,
  broadcast_too_large: 422,
  rate_limit_exceeded: 429,
  daily_quota_exceeded: 429,
  monthly_quota_exceeded: 429,
  internal_server_error: 500,
} as const;

/** A spec error name. */
export type ErrorName = keyof typeof ERROR_STATUS;

/** An SMTP reply: the basic code (RFC 5321) and the enhanced status code (RFC 3463). */
export interface SmtpReplyCode {
  readonly code: number;
  readonly enhanced: string;
}

/**
 * The SMTP reply of each error, so the relay speaks the same conditions in its own protocol
 * (spec §7 retry rule 6): 4xx where the API's client would retry (429, concurrent requests,
 * server faults), 5xx where it would not. X.7.1 marks a refusal by policy, 5.6.0 a message
 * that cannot be read, 5.3.4 one that is too big, X.7.0/5.7.8 authentication.
 */
export const SMTP_REPLY: Record<ErrorName, SmtpReplyCode> = {
  invalid_parameter: { code: 501, enhanced: '5.5.4' },
  invalid_payload: { code: 554, enhanced: '5.6.0' },
  invalid_idempotency_key: { code: 554, enhanced: '5.6.0' },
  missing_api_key: { code: 530, enhanced: '5.7.0' },
  invalid_api_key: { code: 535, enhanced: '5.7.8' },
  restricted_api_key: { code: 550, enhanced: '5.7.1' },
  plan_limit_reached: { code: 550, enhanced: '5.7.1' },
  forbidden: { code: 550, enhanced: '5.7.1' },
  team_suspended: { code: 554, enhanced: '5.7.1' },
  sending_paused: { code: 554, enhanced: '5.7.1' },
  broadcasts_paused: { code: 554, enhanced: '5.7.1' },
  not_found: { code: 550, enhanced: '5.0.0' },
  method_not_allowed: { code: 502, enhanced: '5.5.1' },
  conflict: { code: 451, enhanced: '4.3.0' },
  invalid_idempotent_request: { code: 554, enhanced: '5.6.0' },
  concurrent_idempotent_requests: { code: 451, enhanced: '4.3.0' },
  payload_too_large: { code: 552, enhanced: '5.3.4' },
  validation_error: { code: 550, enhanced: '5.7.1' },
  all_recipients_suppressed: { code: 550, enhanced: '5.7.1' },
  broadcast_too_large: { code: 552, enhanced: '5.3.4' },
  rate_limit_exceeded: { code: 451, enhanced: '4.7.1' },
  daily_quota_exceeded: { code: 451, enhanced: '4.7.1' },
  monthly_quota_exceeded: { code: 451, enhanced: '4.7.1' },
  internal_server_error: { code: 451, enhanced: '4.3.0' },
};
