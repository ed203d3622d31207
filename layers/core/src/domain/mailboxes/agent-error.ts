import { MailstackError } from '../../errors/mailstack-error.ts';
import { wholeRetryAfter } from '../../errors/api-error.ts';

/**
 * A refusal of the mailbox agent API and the mailbox MCP endpoint (spec §7, mailbox agent API
 * statuses): its HTTP status, a stable name an agent can branch on, and a message saying what was
 * wrong and what is allowed. The MCP endpoint returns the same as an `isError` tool result.
 */
export type MailboxAgentErrorName =
  | 'invalid_request' // 400: a field, uuid or revision is wrong
  | 'missing_mailbox_key' // 401
  | 'invalid_mailbox_key' // 401
  | 'forbidden' // 403: the key's permissions, expiry, revocation or the mailbox owner
  | 'not_found' // 404: no such item in this mailbox, or mailboxes are off
  | 'stale_revision' // 409
  | 'license_required' // 409: no active license, or no seat for this mailbox
  | 'storage_exhausted' // 409
  | 'allowance_exhausted' // 409
  | 'conflict' // 409: the draft is being sent, or the send was refused by a sending rule
  | 'payload_too_large' // 413
  | 'rate_limit_exceeded' // 429: over 20 failed authentications a minute from one address
  | 'transport_unavailable'; // 503

/** The mailbox agent's error catalog: each name's status. */
export type MailboxAgentStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429 | 503;

export const MAILBOX_AGENT_ERROR_STATUS: Record<MailboxAgentErrorName, MailboxAgentStatus> = {
  invalid_request: 400,
  missing_mailbox_key: 401,
  invalid_mailbox_key: 401,
  forbidden: 403,
  not_found: 404,
  stale_revision: 409,
  license_required: 409,
  storage_exhausted: 409,
  allowance_exhausted: 409,
  conflict: 409,
  payload_too_large: 413,
  rate_limit_exceeded: 429,
  transport_unavailable: 503,
};

export class MailboxAgentError extends MailstackError {
  override readonly name: MailboxAgentErrorName;
  readonly status: MailboxAgentStatus;
  /** Whole seconds until a retry can succeed (429 only): the Retry-After header. */
  readonly retryAfter: number | undefined;
  constructor(name: MailboxAgentErrorName, message: string, retryAfter?: number, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = name;
    this.status = MAILBOX_AGENT_ERROR_STATUS[name];
    this.retryAfter = retryAfter === undefined ? undefined : wholeRetryAfter(retryAfter);
  }

  /** The wire body (the API's error shape). */
  toJSON() {
    return { statusCode: this.status, name: this.name, message: this.message };
  }
}

export const isMailboxAgentError = (e: unknown): e is MailboxAgentError => e instanceof MailboxAgentError;

export const badRequest = (message: string) => new MailboxAgentError('invalid_request', message);
