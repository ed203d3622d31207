import { apiRoute } from '@mailstack/core/http/api-route';
import { CreateTopicRequest, TopicObject } from '@mailstack/core/schemas/topics';
import { createTopic } from '@mailstack/core/domain/topics/create-topic';
import { topicView } from '@mailstack/core/domain/topics/topic';

/** POST /topics: answers the Topic (spec §4), a superset of the SDK's {object, id}. */
export const handler = apiRoute({
  access: 'full',
  response: TopicObject,
  body: CreateTopicRequest,
  status: 201,
  handler: async ({ deps, auth, body }) => topicView(await createTopic(deps, auth.team.id, body)),
});
