import { apiRoute } from '@mailstack/core/http/api-route';
import { BatchRemovedSuppressions, BatchRemoveSuppressionsRequest } from '@mailstack/core/schemas/suppressions';
import { findSuppression } from '@mailstack/core/domain/suppressions/get-suppression';
import { removeSuppression } from '@mailstack/core/domain/suppressions/remove-suppression';

/** POST /suppressions/batch/remove (emails or ids, up to 1,000; unknown ones are skipped) */
export const handler = apiRoute({
  access: 'full',
  response: BatchRemovedSuppressions,
  body: BatchRemoveSuppressionsRequest,
  handler: async ({ deps, auth, body }) => {
    const data = [];
    for (const ref of [...(body.emails ?? []), ...(body.ids ?? [])]) {
      if (!(await findSuppression(deps, auth.team.id, ref))) continue;
      data.push({ object: 'suppression', id: (await removeSuppression(deps, auth.team.id, ref)).id, deleted: true });
    }
    return { data };
  },
});
