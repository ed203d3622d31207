import * as v from 'valibot';
import { IdempotencyConfig } from '@aws-lambda-powertools/idempotency';
import { makeHandlerIdempotent } from '@aws-lambda-powertools/idempotency/middleware';
import type { Deps } from '../runtime/deps.ts';
import { ApiError } from '../errors/api-error.ts';
import {
  checkIdempotencyKey,
  FOREIGN_RECORD_ERRORS,
  IDEMPOTENCY_TTL_SECONDS,
  idempotencyRefusal,
} from '../adapters/aws/idempotency.ts';
import { requestState, type RouteMiddleware } from './api-route.ts';

const INNER = 'mailstack.idempotency';

/**
 * Powertools idempotency on the `Idempotency-Key` header, scoped to the caller's team (the
 * records live in the team's own partition) and validated against the raw body: the same key
 * and payload return the original response; another payload is 409 invalid_idempotent_request;
 * a key still in flight is 409 concurrent_idempotent_requests.
 */
export const idempotency = (deps: () => Deps): RouteMiddleware => ({
  doc: {
    headers: v.object({
      'Idempotency-Key': v.optional(
        v.pipe(
          v.string(),
          v.minLength(1),
          v.maxLength(256),
          v.description(
            'Sends with the same key and payload within 24 hours answer the first response without sending again.',
          ),
        ),
      ),
    }),
    errors: ['invalid_idempotency_key', 'invalid_idempotent_request', 'concurrent_idempotent_requests'],
  },
  before: async function idempotencyBefore(request) {
    const key = request.event.headers?.['idempotency-key'];
    if (key === undefined) return;
    checkIdempotencyKey(key);
    // The idempotency record is a write: a route counting beside its reads is counted first.
    await requestState.get(request.event)?.admitted;
    const d = deps();
    const teamId = (request.event.requestContext as any).authorizer?.lambda?.teamId as string;
    const inner = makeHandlerIdempotent({
      persistenceStore: d.idempotency.forTeam(teamId, key),
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
      throw idempotencyRefusal(error) ?? error;
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
    if (
      !inner ||
      (request.error instanceof ApiError &&
        ['invalid_idempotent_request', 'concurrent_idempotent_requests', 'invalid_idempotency_key'].includes(
          request.error.name,
        ))
    )
      return;
    if (FOREIGN_RECORD_ERRORS.has((request.error as Error)?.name)) return;
    await inner.onError(request);
  },
});
