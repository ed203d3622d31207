import { dispatch } from '@mailstack/core/http/dispatch';
import { areaRoutes } from '../routes.ts';
import { handler as receiveSesEvent } from './receive-ses-event.ts';

/** The provider-events Lambda. Its routes, and the handler answering each, come from the route manifest. */
export const handler = dispatch(areaRoutes('provider-events', {
  'receive-ses-event': receiveSesEvent,
}));
