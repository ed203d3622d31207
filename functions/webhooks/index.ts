import { dispatch } from '@mailstack/core/http/dispatch';
import { areaRoutes } from '../routes.ts';
import { handler as createWebhook } from './create-webhook.ts';
import { handler as listWebhooks } from './list-webhooks.ts';
import { handler as getWebhook } from './get-webhook.ts';
import { handler as updateWebhook } from './update-webhook.ts';
import { handler as deleteWebhook } from './delete-webhook.ts';
import { handler as rotateSecret } from './rotate-webhook-secret.ts';
import { handler as listEvents } from './list-webhook-events.ts';
import { handler as getEvent } from './get-webhook-event.ts';
import { handler as listAttempts } from './list-webhook-event-attempts.ts';
import { handler as replayEvent } from './replay-webhook-event.ts';

/** The webhooks Lambda. Its routes, and the handler answering each, come from the route manifest. */
export const handler = dispatch(
  areaRoutes('webhooks', {
    'create-webhook': createWebhook,
    'list-webhooks': listWebhooks,
    'get-webhook': getWebhook,
    'update-webhook': updateWebhook,
    'delete-webhook': deleteWebhook,
    'rotate-webhook-secret': rotateSecret,
    'list-webhook-events': listEvents,
    'get-webhook-event': getEvent,
    'list-webhook-event-attempts': listAttempts,
    'replay-webhook-event': replayEvent,
  }),
);
