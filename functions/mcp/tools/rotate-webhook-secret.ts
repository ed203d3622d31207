import { handler } from '../../webhooks/rotate-webhook-secret.ts';
import { routeTool } from '../tool.ts';

/** POST /webhooks/{id}/signing-secret/rotate */
export const tool = routeTool({
  name: 'rotate_webhook_secret',
  scope: 'webhooks:write',
  route: 'POST /webhooks/{id}/signing-secret/rotate',
  handler,
  description:
    "Rotate a webhook endpoint's signing secret. The old secret keeps signing alongside the new one for overlap_hours (default 24, at most 72; 0 drops it at once).",
});
