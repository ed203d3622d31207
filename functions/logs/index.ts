import { dispatch } from '@mailstack/core/http/dispatch';
import { areaRoutes } from '../routes.ts';
import { handler as listLogs } from './list-logs.ts';
import { handler as getLog } from './get-log.ts';

/** The logs Lambda (GET /logs): its routes come from the route manifest. */
export const handler = dispatch(areaRoutes('logs', { 'list-logs': listLogs, 'get-log': getLog }));
