import { apiRoute } from '@mailstack/core/http/api-route';
import { AddSuppressionRequest } from '@mailstack/core/schemas/suppressions';
import { addSuppression } from '@mailstack/core/domain/suppressions/suppression-store';
import { ObjectRef } from '@mailstack/core/schemas/common';

/** POST /suppressions: a manual entry. */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('suppression'),
  body: AddSuppressionRequest,
  status: 201,
  handler: async ({ deps, auth, body }) => {
    const { suppression } = await addSuppression(deps, {
      teamId: auth.team.id,
      email: body.email,
      origin: 'manual',
      source: 'api',
    });
    return { object: 'suppression', id: suppression.id };
  },
});
