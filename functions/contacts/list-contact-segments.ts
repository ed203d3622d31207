import { apiRoute } from '@mailstack/core/http/api-route';
import { ContactParams } from '@mailstack/core/schemas/contacts';
import { listOf } from '@mailstack/core/schemas/common';
import { segmentsOfContact, segmentView } from '@mailstack/core/domain/segments/segments';

/** GET /contacts/{id or email}/segments */
export const handler = apiRoute({
  access: 'full',
  params: ContactParams,
  handler: async ({ deps, auth, params }) => listOf((await segmentsOfContact(deps, auth.team.id, params.id)).map((s) => segmentView(s)), false),
});
