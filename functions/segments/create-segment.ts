import { apiRoute } from '@mailstack/core/http/api-route';
import { CreatedSegment, CreateSegmentRequest } from '@mailstack/core/schemas/contacts';
import { createSegment } from '@mailstack/core/domain/segments/segments';

/** POST /segments */
export const handler = apiRoute({
  access: 'full',
  response: CreatedSegment('segment'),
  body: CreateSegmentRequest,
  status: 201,
  handler: async ({ deps, auth, body }) => {
    const s = await createSegment(deps, auth.team.id, body.name);
    return { object: 'segment', id: s.id, name: s.name };
  },
});
