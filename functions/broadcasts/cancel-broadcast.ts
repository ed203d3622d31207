import { apiRoute } from '@mailstack/core/http/api-route';
import { CanceledBroadcast } from '@mailstack/core/schemas/broadcasts';
import { IdParams } from '@mailstack/core/schemas/common';
import { cancelBroadcast } from '@mailstack/core/domain/broadcasts/cancel-broadcast';

/** POST /broadcasts/{id}/cancel: any state moves to canceled (spec §3); answers canceled_remaining. */
export const handler = apiRoute({
  access: 'full',
  response: CanceledBroadcast,
  params: IdParams,
  handler: async ({ deps, auth, params }) => cancelBroadcast(deps, auth.team.id, params.id),
});
