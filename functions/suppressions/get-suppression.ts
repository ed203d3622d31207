import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams } from '@mailstack/core/schemas/common';
import { getSuppression } from '@mailstack/core/domain/suppressions/get-suppression';
import { suppressionView } from '@mailstack/core/domain/suppressions/suppression-view';
import { SuppressionObject } from '@mailstack/core/schemas/suppressions';

/** GET /suppressions/{id or address} */
export const handler = apiRoute({
  access: 'full',
  response: SuppressionObject,
  params: IdParams,
  handler: async ({ deps, auth, params }) => suppressionView(await getSuppression(deps, auth.team.id, params.id)),
});
