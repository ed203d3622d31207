import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import type { Context } from 'aws-lambda';
import type { Deps } from '../../runtime/deps.ts';
import { ApiError } from '../../errors/api-error.ts';

/** Keys are kept 24 hours (spec §4 conventions). */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

/** How long a send outside Lambda may hold its key in progress before a retry may take it over. */
const IN_PROGRESS_SECONDS = 60;

/** Powertools' own error names, each mapped to the spec's refusal. */
const REFUSALS: Readonly<Record<string, () => ApiError>> = {
  IdempotencyValidationError: () =>
    new ApiError(
      'invalid_idempotent_request',
      'This Idempotency-Key was already used with a different request payload. Use a new key for a new request.',
    ),
  IdempotencyAlreadyInProgressError: () =>
    new ApiError(
      'concurrent_idempotent_requests',
      'A request with this Idempotency-Key is still in progress. Retry after it completes.',
    ),
  IdempotencyItemAlreadyExistsError: () =>
    new ApiError(
      'concurrent_idempotent_requests',
      'A request with this Idempotency-Key is still in progress. Retry after it completes.',
    ),
};

/** Powertools error names that belong to another request's record, never to be released by this one. */
export const FOREIGN_RECORD_ERRORS = new Set([...Object.keys(REFUSALS), 'IdempotencyInconsistentStateError']);

/** The spec refusal for a Powertools idempotency error, or undefined for any other error. */
export const idempotencyRefusal = (error: unknown): ApiError | undefined =>
  REFUSALS[(error as Error | undefined)?.name ?? '']?.();

/** Checks an Idempotency-Key's length (1 to 256 characters). */
export const checkIdempotencyKey = (key: string): void => {
  if (key.length < 1 || key.length > 256)
    throw new ApiError('invalid_idempotency_key', 'The Idempotency-Key header must be between 1 and 256 characters.');
};

/**
 * Runs `run` at most once per team, `scope` and key within 24 hours, outside any Lambda handler
 * (the SMTP relay): a repeat with the same payload returns the first result; another payload is
 * 409 invalid_idempotent_request; a repeat while the first still runs is 409
 * concurrent_idempotent_requests. A failed run releases the key, so the caller may retry.
 */
export const runIdempotent = async <T extends Record<string, unknown>>(
  deps: Deps,
  input: { teamId: string; scope: string; key: string; payload: Record<string, unknown> },
  run: () => Promise<T>,
): Promise<T> => {
  checkIdempotencyKey(input.key);
  const config = new IdempotencyConfig({
    eventKeyJmesPath: 'key',
    payloadValidationJmesPath: 'payload',
    expiresAfterSeconds: IDEMPOTENCY_TTL_SECONDS,
  });
  // Outside Lambda there is no deadline; a stand-in one bounds how long a crashed run holds the key.
  config.registerLambdaContext({ getRemainingTimeInMillis: () => IN_PROGRESS_SECONDS * 1000 } as Context);
  const once = makeIdempotent(async (_data: { key: string; payload: Record<string, unknown> }) => run(), {
    persistenceStore: deps.idempotency.forTeam(input.teamId, `${input.scope}#${input.key}`),
    config,
    keyPrefix: input.scope,
  });
  try {
    return await once({ key: input.key, payload: input.payload });
  } catch (error) {
    throw idempotencyRefusal(error) ?? error;
  }
};
