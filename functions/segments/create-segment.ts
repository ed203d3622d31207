import { apiRoute } from '@mailstack/core/http/api-route';
import { CreatedSegment, CreateSegmentRequest } from '@mailstack/core/schemas/contacts';
import { createSegment } from '@mailstack/core/domain/segments/create-segment';
import { objectOf } from './object-name.ts';

/** POST /segments, and its older name POST /audiences */
export const handler = apiRoute({
  access: 'full',
  response: CreatedSegment,
  body: CreateSegmentRequest,
  status: 201,
  handler: async ({ deps, auth, body, event }) => {
    const s = await createSegment(deps, auth.team.id, body.name);
    return { object: objectOf(event), id: s.id, name: s.name };
  },
});
