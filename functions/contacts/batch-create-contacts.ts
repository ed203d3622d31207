import { apiRoute } from '@mailstack/core/http/api-route';
import { BatchCreateContactsRequest, BatchCreatedContacts, BatchCreateQuery } from '@mailstack/core/schemas/contacts';
import { batchCreateContacts } from '@mailstack/core/domain/contacts/batch-create-contacts';
import { BatchHeaders, batchModeOf } from '@mailstack/core/schemas/batch';

/** POST /contacts/batch (?on_conflict=upsert; x-batch-validation) */
export const handler = apiRoute({
  access: 'full',
  response: BatchCreatedContacts,
  headers: BatchHeaders,
  errors: ['plan_limit_reached'],
  body: BatchCreateContactsRequest,
  query: BatchCreateQuery,
  handler: async ({ deps, auth, body, query, headers }) =>
    batchCreateContacts(deps, auth.team, body, {
      upsert: query.on_conflict === 'upsert',
      mode: batchModeOf(headers['x-batch-validation']),
    }),
});
