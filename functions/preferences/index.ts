import { dispatch } from '@mailstack/core/http/dispatch';
import { areaRoutes } from '../routes.ts';
import { handler as showPreferences } from './show-preferences.ts';
import { handler as savePreferences } from './save-preferences.ts';
import { handler as showUnsubscribe } from './show-unsubscribe.ts';
import { handler as oneClickUnsubscribe } from './one-click-unsubscribe.ts';

/** The preferences Lambda. Its routes, and the handler answering each, come from the route manifest. */
export const handler = dispatch(
  areaRoutes('preferences', {
    'show-preferences': showPreferences,
    'save-preferences': savePreferences,
    'show-unsubscribe': showUnsubscribe,
    'one-click-unsubscribe': oneClickUnsubscribe,
  }),
);
