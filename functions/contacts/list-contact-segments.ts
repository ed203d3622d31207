import { apiRoute } from '@mailstack/core/http/api-route';
import { ContactParams, SegmentObject } from '@mailstack/core/schemas/contacts';
import { listOf, ListOf } from '@mailstack/core/schemas/common';
import { segmentsOfContact, segmentView } from '@mailstack/core/domain/segments/segments';

/** GET /contacts/{id or email}/segments */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(SegmentObject),
  params: ContactParams,
  handler: async ({ deps, auth, params }) => listOf((await segmentsOfContact(deps, auth.team.id, params.id)).map((s) => segmentView(s)), false),
});
