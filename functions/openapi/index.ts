import { dispatch } from '@mailstack/core/http/dispatch';
import { areaRoutes } from '../routes.ts';
import { handler as getOpenApi } from './get-openapi.ts';

/** The openapi Lambda: GET /openapi.json, dispatched from the route manifest. */
export const handler = dispatch(areaRoutes('openapi', { 'get-openapi': getOpenApi }));
