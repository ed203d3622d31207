import { apiRoute } from '@mailstack/core/http/api-route';
import { idempotency } from '@mailstack/core/http/idempotency';
import { getDeps } from '@mailstack/core/runtime/deps';
import { SendBatchRequest } from '@mailstack/core/schemas/emails';
import { batchModeOf } from '@mailstack/core/schemas/batch';
import { sendBatch } from '@mailstack/core/domain/emails/send-emails';

/** POST /emails/batch */
export const handler = apiRoute({
  access: 'sending',
  body: SendBatchRequest,
  middlewares: [idempotency(getDeps)],
  handler: async ({ deps, auth, body, headers }) => sendBatch(deps, auth, body, batchModeOf(headers['x-batch-validation'])),
});
