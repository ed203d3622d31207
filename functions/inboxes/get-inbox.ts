import { apiRoute } from '@mailstack/core/http/api-route';
import { InboxObject, InboxParams } from '@mailstack/core/schemas/inboxes';
import { resolveInbox } from '@mailstack/core/domain/mailboxes/inbox';
import { inboxView } from '@mailstack/core/domain/mailboxes/inbox-view';

/** GET /inboxes/{id}: an inbox by id or address, with its counters. */
export const handler = apiRoute({
  access: 'full',
  response: InboxObject,
  params: InboxParams,
  handler: async ({ deps, auth, params }) =>
    inboxView(await resolveInbox(deps, auth.team.id, params.id, auth.mailboxIds)),
});
