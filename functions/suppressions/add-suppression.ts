import { apiRoute } from '@mailstack/core/http/api-route';
import { AddSuppressionRequest } from '@mailstack/core/schemas/suppressions';
import { addSuppression } from '@mailstack/core/domain/suppressions/suppression-store';

/** POST /suppressions: a manual entry. */
export const handler = apiRoute({
  access: 'full',
  body: AddSuppressionRequest,
  status: 201,
  handler: async ({ deps, auth, body }) => {
    const { suppression } = await addSuppression(deps, { teamId: auth.team.id, email: body.email, origin: 'manual', source: 'api' });
    return { object: 'suppression', id: suppression.id };
  },
});
