import { apiRoute } from '@mailstack/core/http/api-route';
import { listOf, ListOf, Pagination } from '@mailstack/core/schemas/common';
import { listTopics } from '@mailstack/core/domain/topics/list-topics';
import { topicView } from '@mailstack/core/domain/topics/topic';
import { TopicRow } from '@mailstack/core/schemas/topics';

/** GET /topics */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(TopicRow),
  query: Pagination,
  handler: async ({ deps, auth, query }) => {
    const { items, hasMore } = await listTopics(deps, auth.team.id, query);
    return listOf(
      items.map((t) => {
        const { object: _o, ...row } = topicView(t);
        return row;
      }),
      hasMore,
    );
  },
});
