import { apiRoute } from '@mailstack/core/http/api-route';
import { getUsage } from '@mailstack/core/domain/usage/get-usage';
import { UsageObject } from '@mailstack/core/schemas/usage';

/** GET /usage */
export const handler = apiRoute({
  access: 'full',
  response: UsageObject,
  handler: async ({ deps, auth }) => getUsage(deps, auth.team),
});
