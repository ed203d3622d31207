import { dispatch } from '@mailstack/core/http/dispatch';
import { areaRoutes } from '../routes.ts';
import { handler as createInbox } from './create-inbox.ts';
import { handler as listInboxes } from './list-inboxes.ts';
import { handler as getInbox } from './get-inbox.ts';
import { handler as updateInbox } from './update-inbox.ts';
import { handler as deleteInbox } from './delete-inbox.ts';

/** The inboxes Lambda (the reference SDK's `inboxes` over the mailboxes). Its routes come from the route manifest. */
export const handler = dispatch(
  areaRoutes('inboxes', {
    'create-inbox': createInbox,
    'list-inboxes': listInboxes,
    'get-inbox': getInbox,
    'update-inbox': updateInbox,
    'delete-inbox': deleteInbox,
  }),
);
