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

/** SMTP reply codes for each error, so the relay speaks the same conditions in its own protocol. */
export const SMTP_REPLY: Record<ErrorName, number> = {
  invalid_parameter: 501,
  invalid_payload: 501,
  invalid_idempotency_key: 501,
  missing_api_key: 530,
  invalid_api_key: 535,
  restricted_api_key: 550,
  plan_limit_reached: 552,
  forbidden: 550,
  team_suspended: 554,
  sending_paused: 554,
  broadcasts_paused: 554,
  not_found: 550,
  method_not_allowed: 502,
  conflict: 451,
  invalid_idempotent_request: 550,
  concurrent_idempotent_requests: 451,
  payload_too_large: 552,
  validation_error: 550,
  all_recipients_suppressed: 550,
  broadcast_too_large: 552,
  rate_limit_exceeded: 421,
  daily_quota_exceeded: 452,
  monthly_quota_exceeded: 452,
  internal_server_error: 451,
};
