import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams } from '@mailstack/core/schemas/common';
import { getSegment, segmentView } from '@mailstack/core/domain/segments/segments';
import { SegmentObject } from '@mailstack/core/schemas/contacts';

/** GET /segments/{id} */
export const handler = apiRoute({
  access: 'full',
  response: SegmentObject,
  params: IdParams,
  handler: async ({ deps, auth, params }) => segmentView(await getSegment(deps, auth.team.id, params.id), 'segment'),
});
