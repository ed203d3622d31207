import { apiRoute } from '@mailstack/core/http/api-route';
import { CreatedSegment, CreateSegmentRequest } from '@mailstack/core/schemas/contacts';
import { createSegment } from '@mailstack/core/domain/segments/segments';

/** POST /audiences */
export const handler = apiRoute({
  access: 'full',
  response: CreatedSegment('audience'),
  body: CreateSegmentRequest,
  status: 201,
  handler: async ({ deps, auth, body }) => {
    const s = await createSegment(deps, auth.team.id, body.name);
    return { object: 'audience', id: s.id, name: s.name };
  },
});
