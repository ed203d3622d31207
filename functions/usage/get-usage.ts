import { apiRoute } from '@mailstack/core/http/api-route';
import { getUsage } from '@mailstack/core/domain/usage/get-usage';

/** GET /usage */
export const handler = apiRoute({
  access: 'full',
  handler: async ({ deps, auth }) => getUsage(deps, auth.team),
});
