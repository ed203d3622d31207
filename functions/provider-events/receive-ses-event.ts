import * as v from 'valibot';
import { apiRoute } from '@mailstack/core/http/api-route';
import { receiveSns } from '@mailstack/core/domain/emails/pipeline/receive-sns';
import { SnsEnvelope } from '@mailstack/core/schemas/provider-events';

const Received = v.object({ received: v.literal(true), applied: v.optional(v.picklist(['applied', 'ignored'])) });

/** POST /provider-events/ses: SES events through SNS (no API key; the SNS signature authenticates). */
export const handler = apiRoute({
  access: 'public',
  response: Received,
  errors: ['invalid_parameter'],
  body: SnsEnvelope,
  handler: async ({ deps, body }) => receiveSns(deps, body),
});
