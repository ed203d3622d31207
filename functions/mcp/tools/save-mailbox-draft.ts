import { saveDraft, savedDraftView } from '@mailstack/core/domain/mailboxes/drafts';
import { SaveDraftRequest, SavedDraftResponse } from '@mailstack/core/schemas/mailbox-agent';
import { mailboxTool } from '../mailbox-tool.ts';

/** POST /api/mailbox-agent/drafts, in a mailbox chosen at consent. */
export const tool = mailboxTool({
  name: 'save_mailbox_draft',
  scope: 'mail:draft',
  description:
    "Save a draft in one of the mailboxes the person chose when connecting you (mailbox_id): a new one (no id, expectedRevision 0; sourceItemId to answer an inbox message in its thread), or a new revision of one (id, sourceItemId equal to it, expectedRevision its latest revision). to: 1 to 20 addresses; retainedAttachments: indexes of the source's attachments to keep; uploads: [{filename, base64}] (at most 10 attachments of 256 KiB). Both arrays are required, [] for none. Answers {id, revision, status, to, subject, attachments}. 409 stale_revision means someone saved first: read the draft again. Saving never sends: send_mailbox_draft does.",
  body: SaveDraftRequest,
  answer: SavedDraftResponse,
  run: async (deps, caller, who, input) => savedDraftView(await saveDraft(deps, caller, who, input)),
});
