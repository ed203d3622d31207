import { dispatch } from '@mailstack/core/http/dispatch';
import { areaRoutes } from '../routes.ts';
import { handler as getUsage } from './get-usage.ts';

/** The usage Lambda. Its routes, and the handler answering each, come from the route manifest. */
export const handler = dispatch(
  areaRoutes('usage', {
    'get-usage': getUsage,
  }),
);
