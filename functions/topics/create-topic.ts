import { apiRoute } from '@mailstack/core/http/api-route';
import { CreateTopicRequest } from '@mailstack/core/schemas/topics';
import { createTopic } from '@mailstack/core/domain/topics/topics';

/** POST /topics */
export const handler = apiRoute({
  access: 'full',
  body: CreateTopicRequest,
  status: 201,
  handler: async ({ deps, auth, body }) => ({ object: 'topic', id: (await createTopic(deps, auth.team.id, body)).id }),
});
