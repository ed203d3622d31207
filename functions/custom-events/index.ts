import { dispatch } from '@mailstack/core/http/dispatch';
import { areaRoutes } from '../routes.ts';
import { handler as createEvent } from './create-event.ts';
import { handler as listEvents } from './list-events.ts';
import { handler as getEvent } from './get-event.ts';
import { handler as updateEvent } from './update-event.ts';
import { handler as deleteEvent } from './delete-event.ts';
import { handler as sendEvent } from './send-event.ts';

/** The custom events Lambda (the SDK's `events`). Its routes come from the route manifest. */
export const handler = dispatch(
  areaRoutes('custom-events', {
    'create-event': createEvent,
    'list-events': listEvents,
    'get-event': getEvent,
    'update-event': updateEvent,
    'delete-event': deleteEvent,
    'send-event': sendEvent,
  }),
);
