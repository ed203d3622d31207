import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams } from '@mailstack/core/schemas/common';
import { LogObject } from '@mailstack/core/schemas/logs';
import { getRequestLog } from '@mailstack/core/domain/logs/get-request-log';
import { logView } from '@mailstack/core/domain/logs/request-log';

/** GET /logs/{id}: one request with its (redacted) request and response bodies */
export const handler = apiRoute({
  access: 'full',
  response: LogObject,
  params: IdParams,
  handler: async ({ deps, auth, params }) => logView(await getRequestLog(deps, auth.team.id, params.id)),
});
