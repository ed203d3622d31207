import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams } from '@mailstack/core/schemas/common';
import { UpdateTopicRequest } from '@mailstack/core/schemas/topics';
import { updateTopic } from '@mailstack/core/domain/topics/topics';
import { validationError } from '@mailstack/core/errors/api-error';

/** PATCH /topics/{id} (the SDK repeats the id in the body) */
export const handler = apiRoute({
  access: 'full',
  params: IdParams,
  body: UpdateTopicRequest,
  handler: async ({ deps, auth, params, body }) => {
    if (body.id !== undefined && body.id !== params.id) throw validationError('`id` in the body must match the topic id of the path.');
    const { id: _id, default_subscription: _d, ...change } = body;
    return { object: 'topic', id: (await updateTopic(deps, auth.team.id, params.id, change)).id };
  },
});
