import { handler } from '../../webhooks/create-webhook.ts';
import { routeTool } from '../tool.ts';

/** POST /webhooks */
export const tool = routeTool({
  name: 'create_webhook',
  scope: 'webhooks:write',
  route: 'POST /webhooks',
  handler,
  description:
    'Register a webhook endpoint (an https URL) for event types such as email.delivered or contact.created. Returns the signing secret (whsec_...) used to verify deliveries.',
});
