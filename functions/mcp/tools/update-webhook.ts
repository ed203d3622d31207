import { handler } from '../../webhooks/update-webhook.ts';
import { routeTool } from '../tool.ts';

/** PATCH /webhooks/{id} */
export const tool = routeTool({
  name: 'update_webhook',
  scope: 'webhooks:write',
  route: 'PATCH /webhooks/{id}',
  handler,
  description: "Change a webhook endpoint's URL, event types, or status ('enabled' or 'disabled').",
});
