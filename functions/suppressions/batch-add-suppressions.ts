import { apiRoute } from '@mailstack/core/http/api-route';
import { BatchAddedSuppressions, BatchAddSuppressionsRequest } from '@mailstack/core/schemas/suppressions';
import { addSuppression } from '@mailstack/core/domain/suppressions/suppression-store';

/** POST /suppressions/batch/add (up to 1,000 addresses) */
export const handler = apiRoute({
  access: 'full',
  response: BatchAddedSuppressions,
  body: BatchAddSuppressionsRequest,
  status: 201,
  handler: async ({ deps, auth, body }) => {
    const data = [];
    for (const email of body.emails)
      data.push({
        object: 'suppression',
        id: (await addSuppression(deps, { teamId: auth.team.id, email, origin: 'manual', source: 'api' })).suppression
          .id,
      });
    return { data };
  },
});
