import { apiRoute } from '@mailstack/core/http/api-route';
import { BroadcastObject } from '@mailstack/core/schemas/broadcasts';
import { IdParams } from '@mailstack/core/schemas/common';
import { broadcastView } from '@mailstack/core/domain/broadcasts/broadcast-view';
import { getBroadcast } from '@mailstack/core/domain/broadcasts/get-broadcast';

/** GET /broadcasts/{id}: with sent_count and the live finishes_at. */
export const handler = apiRoute({
  access: 'full',
  response: BroadcastObject,
  params: IdParams,
  handler: async ({ deps, auth, params }) => {
    const { broadcast, checkpoint } = await getBroadcast(deps, auth.team.id, params.id);
    return broadcastView(broadcast, checkpoint, deps.clock.now());
  },
});
