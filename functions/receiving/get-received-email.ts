import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams } from '@mailstack/core/schemas/common';
import { ReceivedEmailObject, ReceivedEmailQuery } from '@mailstack/core/schemas/receiving';
import { getReceivedMessage } from '@mailstack/core/domain/mailboxes/get-received-message';
import { receivedEmailView } from '@mailstack/core/domain/mailboxes/received-email';

/** GET /emails/receiving/{id}: a received email with its bodies, headers and a link to its raw MIME. */
export const handler = apiRoute({
  access: 'full',
  response: ReceivedEmailObject,
  params: IdParams,
  query: ReceivedEmailQuery,
  handler: async ({ deps, auth, params, query }) =>
    receivedEmailView(
      deps,
      await getReceivedMessage(deps, auth.team.id, params.id, auth.mailboxIds),
      query.html_format,
    ),
});
