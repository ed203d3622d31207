import { apiRoute } from '@mailstack/core/http/api-route';
import { idempotency } from '@mailstack/core/http/idempotency';
import { getDeps } from '@mailstack/core/runtime/deps';
import { SendBatchRequest, SentBatch } from '@mailstack/core/schemas/emails';
import { BatchHeaders, batchModeOf } from '@mailstack/core/schemas/batch';
import { sendBatch } from '@mailstack/core/domain/emails/send-emails';

/** POST /emails/batch */
export const handler = apiRoute({
  access: 'sending',
  response: SentBatch,
  headers: BatchHeaders,
  errors: ['restricted_api_key', 'team_suspended', 'sending_paused', 'daily_quota_exceeded', 'monthly_quota_exceeded'],
  body: SendBatchRequest,
  rateCount: 'beside',
  middlewares: [idempotency(getDeps)],
  handler: async ({ deps, auth, body, headers }) =>
    sendBatch(deps, auth, body, batchModeOf(headers['x-batch-validation'])),
});
