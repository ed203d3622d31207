import { dispatch } from '@mailstack/core/http/dispatch';
import { areaRoutes } from '../routes.ts';
import { handler as createInbox } from './create-inbox.ts';
import { handler as listInboxes } from './list-inboxes.ts';
import { handler as getInbox } from './get-inbox.ts';
import { handler as updateInbox } from './update-inbox.ts';
import { handler as deleteInbox } from './delete-inbox.ts';
import { handler as listInboxThreads } from './list-inbox-threads.ts';
import { handler as searchInboxThreads } from './search-inbox-threads.ts';
import { handler as getInboxThread } from './get-inbox-thread.ts';
import { handler as updateInboxThread } from './update-inbox-thread.ts';
import { handler as deleteInboxThread } from './delete-inbox-thread.ts';
import { handler as listThreadEmails } from './list-thread-emails.ts';
import { handler as getThreadEmail } from './get-thread-email.ts';
import { handler as getInboxAgent } from './get-inbox-agent.ts';
import { handler as updateInboxAgent } from './update-inbox-agent.ts';
import { handler as listInboxLabels } from './list-inbox-labels.ts';
import { handler as createInboxLabel } from './create-inbox-label.ts';
import { handler as updateInboxLabel } from './update-inbox-label.ts';
import { handler as deleteInboxLabel } from './delete-inbox-label.ts';
import { handler as addThreadLabels } from './add-thread-labels.ts';
import { handler as setThreadLabels } from './set-thread-labels.ts';
import { handler as removeThreadLabels } from './remove-thread-labels.ts';
import { handler as replyThreadEmail } from './reply-thread-email.ts';
import { handler as forwardThreadEmail } from './forward-thread-email.ts';
import { handler as listInboxDrafts } from './list-inbox-drafts.ts';
import { handler as createInboxDraft } from './create-inbox-draft.ts';
import { handler as getInboxDraft } from './get-inbox-draft.ts';
import { handler as updateInboxDraft } from './update-inbox-draft.ts';
import { handler as deleteInboxDraft } from './delete-inbox-draft.ts';
import { handler as sendInboxDraft } from './send-inbox-draft.ts';

/** The inboxes Lambda (the reference SDK's `inboxes` over the mailboxes). Its routes come from the route manifest. */
export const handler = dispatch(
  areaRoutes('inboxes', {
    'create-inbox': createInbox,
    'list-inboxes': listInboxes,
    'get-inbox': getInbox,
    'update-inbox': updateInbox,
    'delete-inbox': deleteInbox,
    'list-inbox-threads': listInboxThreads,
    'search-inbox-threads': searchInboxThreads,
    'get-inbox-thread': getInboxThread,
    'update-inbox-thread': updateInboxThread,
    'delete-inbox-thread': deleteInboxThread,
    'list-thread-emails': listThreadEmails,
    'get-thread-email': getThreadEmail,
    'get-inbox-agent': getInboxAgent,
    'update-inbox-agent': updateInboxAgent,
    'list-inbox-labels': listInboxLabels,
    'create-inbox-label': createInboxLabel,
    'update-inbox-label': updateInboxLabel,
    'delete-inbox-label': deleteInboxLabel,
    'add-thread-labels': addThreadLabels,
    'set-thread-labels': setThreadLabels,
    'remove-thread-labels': removeThreadLabels,
    'reply-thread-email': replyThreadEmail,
    'forward-thread-email': forwardThreadEmail,
    'list-inbox-drafts': listInboxDrafts,
    'create-inbox-draft': createInboxDraft,
    'get-inbox-draft': getInboxDraft,
    'update-inbox-draft': updateInboxDraft,
    'delete-inbox-draft': deleteInboxDraft,
    'send-inbox-draft': sendInboxDraft,
  }),
);
