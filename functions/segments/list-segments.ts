import { apiRoute } from '@mailstack/core/http/api-route';
import { Pagination, listOf } from '@mailstack/core/schemas/common';
import { listSegments } from '@mailstack/core/domain/segments/list-segments';
import { segmentView } from '@mailstack/core/domain/segments/segment';
import { SegmentList } from '@mailstack/core/schemas/contacts';

/** GET /segments, and GET /audiences */
export const handler = apiRoute({
  access: 'full',
  response: SegmentList,
  query: Pagination,
  handler: async ({ deps, auth, query }) => {
    const { items, hasMore } = await listSegments(deps, auth.team.id, query);
    return listOf(
      items.map((s) => {
        const { object: _o, ...row } = segmentView(s);
        return row;
      }),
      hasMore,
    );
  },
});
