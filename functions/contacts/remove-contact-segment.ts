import * as v from 'valibot';
import { apiRoute } from '@mailstack/core/http/api-route';
import { removeFromSegment } from '@mailstack/core/domain/segments/remove-from-segment';
import { ContactSegmentUnlinked } from '@mailstack/core/schemas/contacts';

/** DELETE /contacts/{id or email}/segments/{segment_id} */
export const handler = apiRoute({
  access: 'full',
  response: ContactSegmentUnlinked,
  params: v.object({
    id: v.pipe(v.string(), v.minLength(1)),
    segment_id: v.pipe(v.string(), v.uuid('must be a segment id.')),
  }),
  handler: async ({ deps, auth, params }) => {
    const { contact, segment } = await removeFromSegment(deps, auth.team.id, params.id, params.segment_id);
    return {
      object: 'contact_segment',
      id: segment.id,
      audienceId: segment.id,
      contact_id: contact.id,
      segment_id: segment.id,
      deleted: true,
    };
  },
});
