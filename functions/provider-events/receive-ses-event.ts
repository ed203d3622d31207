import * as v from 'valibot';
import { apiRoute } from '@mailstack/core/http/api-route';
import { receiveSns } from '@mailstack/core/domain/emails/pipeline/receive-sns';

const SnsEnvelope = v.looseObject({ Type: v.string(), Message: v.string() });

/** POST /provider-events/ses: SES events through SNS (no API key; the SNS signature authenticates). */
export const handler = apiRoute({
  access: 'public',
  body: SnsEnvelope,
  handler: async ({ deps, body }) => receiveSns(deps, body),
});
