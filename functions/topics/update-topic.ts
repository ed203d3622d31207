import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams, ObjectRef } from '@mailstack/core/schemas/common';
import { UpdateTopicRequest } from '@mailstack/core/schemas/topics';
import { updateTopic } from '@mailstack/core/domain/topics/update-topic';

/** PATCH /topics/{id} (the SDK repeats the id in the body: the HTTP stack checks and removes it) */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('topic'),
  params: IdParams,
  body: UpdateTopicRequest,
  handler: async ({ deps, auth, params, body }) => {
    const { default_subscription: _d, ...change } = body;
    return { object: 'topic', id: (await updateTopic(deps, auth.team.id, params.id, change)).id };
  },
});
