import { apiRoute } from '@mailstack/core/http/api-route';
import { ThreadLabelList, ThreadLabelParams } from '@mailstack/core/schemas/inbox-labels';
import { resolveInbox } from '@mailstack/core/domain/mailboxes/inbox';
import { changeThreadLabels } from '@mailstack/core/domain/mailboxes/change-thread-labels';

/** DELETE /inboxes/{id}/threads/{thread_id}/labels/{label_id}: one label off the thread. */
export const handler = apiRoute({
  access: 'full',
  response: ThreadLabelList,
  params: ThreadLabelParams,

  errors: ['conflict'],
  handler: async ({ deps, auth, params }) => {
    const m = await resolveInbox(deps, auth.team.id, params.id, auth.mailboxIds);
    return { object: 'list', data: await changeThreadLabels(deps, m, params.thread_id, { remove: params.label_id }) };
  },
});
