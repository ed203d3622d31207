import { apiRoute } from '@mailstack/core/http/api-route';
import { AddThreadLabelsRequest, ThreadLabelList } from '@mailstack/core/schemas/inbox-labels';
import { ThreadParams } from '@mailstack/core/schemas/inboxes';
import { resolveInbox } from '@mailstack/core/domain/mailboxes/inbox';
import { changeThreadLabels } from '@mailstack/core/domain/mailboxes/change-thread-labels';

/** POST /inboxes/{id}/threads/{thread_id}/labels: more labels on the thread. */
export const handler = apiRoute({
  access: 'full',
  response: ThreadLabelList,
  params: ThreadParams,
  body: AddThreadLabelsRequest,
  errors: ['conflict'],
  handler: async ({ deps, auth, params, body }) => {
    const m = await resolveInbox(deps, auth.team.id, params.id, auth.mailboxIds);
    return { object: 'list', data: await changeThreadLabels(deps, m, params.thread_id, { add: body.labels }) };
  },
});
