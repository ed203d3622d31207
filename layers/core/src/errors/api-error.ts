import { ERROR_STATUS, type ErrorName } from './catalog.ts';
import { MailstackError } from './mailstack-error.ts';

/** The error body every non-2xx response carries (spec §7). */
export interface ErrorBody {
  readonly statusCode: number;
  readonly name: ErrorName;
  readonly message: string;
}

/** A refusal the API answers with: a spec error name, its status, and a message for a developer. */
export class ApiError extends MailstackError {
  override readonly name: ErrorName;
  readonly statusCode: number;
  /** Extra response headers, such as Retry-After on a 429. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(name: ErrorName, message: string, options: { headers?: Record<string, string>; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = name;
    this.statusCode = ERROR_STATUS[name];
    this.headers = options.headers ?? {};
  }

  /** The wire body. */
  toJSON(): ErrorBody {
    return { statusCode: this.statusCode, name: this.name, message: this.message };
  }
}

/** True for an ApiError. */
export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

/** 404 for a resource that does not exist or belongs to another team. */
export const notFound = (resource: string): ApiError => new ApiError('not_found', `${resource} not found.`);

/** 422 naming the field that was wrong and what is allowed. */
export const validationError = (message: string): ApiError => new ApiError('validation_error', message);

/**
 * A Retry-After value: whole seconds (RFC 9110 delta-seconds, spec §8), rounded up so a retry
 * after it is never early, and at least 1.
 */
export const wholeRetryAfter = (seconds: number): number => Math.max(1, Math.ceil(seconds));

/** 429 with Retry-After in whole seconds. */
export const rateLimited = (
  message: string,
  retryAfterSeconds: number,
  name: 'rate_limit_exceeded' | 'daily_quota_exceeded' | 'monthly_quota_exceeded' = 'rate_limit_exceeded',
): ApiError => new ApiError(name, message, { headers: { 'Retry-After': String(wholeRetryAfter(retryAfterSeconds)) } });
