import { apiRoute } from '@mailstack/core/http/api-route';
import { InboxAgentObject, InboxParams } from '@mailstack/core/schemas/inboxes';
import { resolveInbox } from '@mailstack/core/domain/mailboxes/inbox';
import { getAgentSettings } from '@mailstack/core/domain/mailboxes/inbox-agent';

/** GET /inboxes/{id}/agent: what the inbox's agents are told (its MCP endpoint serves it to them). */
export const handler = apiRoute({
  access: 'full',
  response: InboxAgentObject,
  params: InboxParams,
  handler: async ({ deps, auth, params }) => ({
    object: 'inbox_agent',
    ...(await getAgentSettings(deps, await resolveInbox(deps, auth.team.id, params.id, auth.mailboxIds))),
  }),
});
