import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams } from '@mailstack/core/schemas/common';
import { getSegment, segmentView } from '@mailstack/core/domain/segments/segment';
import { SegmentOrAudience } from '@mailstack/core/schemas/contacts';
import { objectOf } from './object-name.ts';

/** GET /segments/{id}, and GET /audiences/{id} */
export const handler = apiRoute({
  access: 'full',
  response: SegmentOrAudience,
  params: IdParams,
  handler: async ({ deps, auth, params, event }) =>
    segmentView(await getSegment(deps, auth.team.id, params.id), objectOf(event)),
});
