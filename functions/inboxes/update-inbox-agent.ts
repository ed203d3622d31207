import { apiRoute } from '@mailstack/core/http/api-route';
import { ObjectRef } from '@mailstack/core/schemas/common';
import { InboxParams, UpdateInboxAgentRequest } from '@mailstack/core/schemas/inboxes';
import { resolveInbox } from '@mailstack/core/domain/mailboxes/inbox';
import { updateAgentSettings } from '@mailstack/core/domain/mailboxes/update-agent-settings';

/** PATCH /inboxes/{id}/agent: instructions, tone and actions for the inbox's agents. */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('inbox_agent'),
  params: InboxParams,
  body: UpdateInboxAgentRequest,
  handler: async ({ deps, auth, params, body }) => {
    const m = await resolveInbox(deps, auth.team.id, params.id, auth.mailboxIds);
    await updateAgentSettings(deps, m, body);
    return { object: 'inbox_agent', id: m.id };
  },
});
