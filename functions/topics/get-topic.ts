import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams } from '@mailstack/core/schemas/common';
import { getTopic, topicView } from '@mailstack/core/domain/topics/topic';
import { TopicObject } from '@mailstack/core/schemas/topics';

/** GET /topics/{id} */
export const handler = apiRoute({
  access: 'full',
  response: TopicObject,
  params: IdParams,
  handler: async ({ deps, auth, params }) => topicView(await getTopic(deps, auth.team.id, params.id)),
});
