import type { MiddlewareObj } from '@middy/core';
import { IdempotencyConfig } from '@aws-lambda-powertools/idempotency';
import { makeHandlerIdempotent } from '@aws-lambda-powertools/idempotency/middleware';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { Deps } from '../runtime/deps.ts';
import { keys } from '../table/keys.ts';
import { TABLE } from '../table/definition.ts';
import { ApiError } from '../errors/api-error.ts';
import type { ApiContext, ApiEvent, ApiResult } from './types.ts';

/** Keys are kept 24 hours (spec §4 conventions). */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;
const INNER = 'mailstack.idempotency';
const OWN_ERRORS = new Set(['IdempotencyValidationError', 'IdempotencyAlreadyInProgressError', 'IdempotencyItemAlreadyExistsError', 'IdempotencyInconsistentStateError']);

/**
 * Powertools idempotency on the `Idempotency-Key` header, scoped to the caller's team (the
 * records live in the team's own partition) and validated against the raw body: the same key
 * and payload return the original response; another payload is 409 invalid_idempotent_request;
 * a key still in flight is 409 concurrent_idempotent_requests.
 */
export const idempotency = (deps: () => Deps): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> => ({
  before: async function idempotencyBefore(request) {
    const key = request.event.headers?.['idempotency-key'];
    if (key === undefined) return;
    if (key.length < 1 || key.length > 256) throw new ApiError('invalid_idempotency_key', 'The Idempotency-Key header must be between 1 and 256 characters.');
    const d = deps();
    const teamId = (request.event.requestContext as any).authorizer?.lambda?.teamId as string;
    const inner = makeHandlerIdempotent({
      persistenceStore: new DynamoDBPersistenceLayer({
        tableName: d.table,
        awsSdkV3Client: d.dynamo,
        keyAttr: TABLE.partitionKey,
        sortKeyAttr: TABLE.sortKey,
        staticPkValue: keys.idempotency.partition(teamId),
        expiryAttr: TABLE.ttlAttribute,
      }),
      config: new IdempotencyConfig({
        eventKeyJmesPath: 'headers."idempotency-key"',
        payloadValidationJmesPath: 'body',
        expiresAfterSeconds: IDEMPOTENCY_TTL_SECONDS,
        throwOnNoIdempotencyKey: false,
      }),
    });
    (request.internal as Record<string, unknown>)[INNER] = inner;
    try {
      return await inner.before!(request as any);
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'IdempotencyValidationError') throw new ApiError('invalid_idempotent_request', 'This Idempotency-Key was already used with a different request payload. Use a new key for a new request.');
      if (name === 'IdempotencyAlreadyInProgressError' || name === 'IdempotencyItemAlreadyExistsError') throw new ApiError('concurrent_idempotent_requests', 'A request with this Idempotency-Key is still in progress. Retry after it completes.');
      throw error;
    }
  },
  after: async function idempotencyAfter(request) {
    const inner = (request.internal as Record<string, any>)[INNER];
    // Only successful sends are remembered; a refusal may be retried with the same key.
    if (inner && (request.response?.statusCode ?? 500) < 300) await inner.after(request);
    else if (inner) await inner.onError(request);
  },
  onError: async function idempotencyOnError(request) {
    const inner = (request.internal as Record<string, any>)[INNER];
    // Never release a record on the refusals this middleware raised itself: it belongs to another request.
    if (!inner || request.error instanceof ApiError && ['invalid_idempotent_request', 'concurrent_idempotent_requests', 'invalid_idempotency_key'].includes(request.error.name)) return;
    if (OWN_ERRORS.has((request.error as Error)?.name)) return;
    await inner.onError(request);
  },
});
