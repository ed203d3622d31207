import { apiRoute } from '@mailstack/core/http/api-route';
import { ContactParams, SegmentObject } from '@mailstack/core/schemas/contacts';
import { listOf, ListOf, Pagination } from '@mailstack/core/schemas/common';
import { pageOf } from '@mailstack/core/domain/paging';
import { segmentsOfContact } from '@mailstack/core/domain/segments/segments-of-contact';
import { segmentView } from '@mailstack/core/domain/segments/segment';

/** GET /contacts/{id or email}/segments */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(SegmentObject),
  params: ContactParams,
  query: Pagination,
  handler: async ({ deps, auth, params, query }) => {
    const { items, hasMore } = pageOf(await segmentsOfContact(deps, auth.team.id, params.id), query);
    return listOf(
      items.map((s) => segmentView(s)),
      hasMore,
    );
  },
});
