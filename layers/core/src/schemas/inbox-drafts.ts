import * as v from 'valibot';
import { keepsEmpty } from './validate.ts';
import { Id, Timestamp } from './common.ts';
import { InboxParams } from './inboxes.ts';

/** One address or a list (the SDK sends either), null for none. */
const AddressField = v.optional(
  v.pipe(
    v.nullable(
      v.union([v.string(), v.array(v.string('must be an address.'))], 'must be an address or a list of them.'),
    ),
    v.transform((x) => (x === null ? [] : typeof x === 'string' ? [x] : x)),
  ),
);

/** What a mailbox draft does not hold: refused with what to send instead. */
export const NotOnDrafts = (field: string, instead: string) =>
  v.optional(
    v.pipe(
      v.unknown(),
      v.check(
        (x) => x === null || x === undefined || (Array.isArray(x) && x.length === 0) || x === '',
        `\`${field}\` is not offered on mailbox drafts: ${instead}.`,
      ),
    ),
  );

/** A file of a draft: `content` in base64 (a `path` to fetch is not offered). */
export const DraftFile = v.strictObject({
  filename: v.pipe(v.string('is required: the file name.'), v.minLength(1, 'is required: the file name.')),
  content: v.pipe(
    v.string('is required: the file in base64 (a `path` to download is not offered on mailbox drafts).'),
    v.minLength(1, 'must not be empty.'),
  ),
  content_type: v.optional(v.nullable(v.string())),
  content_id: v.optional(v.nullable(v.string())),
  path: NotOnDrafts('attachments[].path', 'give the file as `content` (base64)'),
});

const DraftFields = {
  to: AddressField,
  cc: NotOnDrafts('cc', 'a draft goes to its `to` recipients (1 to 20)'),
  bcc: NotOnDrafts('bcc', 'a draft goes to its `to` recipients (1 to 20)'),
  subject: v.optional(
    v.pipe(
      v.nullable(v.string('must be a string.')),
      v.transform((x) => x ?? ''),
    ),
  ),
  text: v.optional(
    v.pipe(
      v.nullable(v.string('must be a string.')),
      v.transform((x) => x ?? ''),
    ),
  ),
  html: NotOnDrafts('html', 'a mailbox draft is plain text; send `text`'),
  // `[]` removes every file, as null does (the SDK's UpdateInboxDraftOptions).
  attachments: keepsEmpty(v.optional(v.nullable(v.array(DraftFile, 'must be a list of {filename, content}.')))),
  revision: v.optional(
    v.pipe(
      v.number('must be the revision you last read (a whole number).'),
      v.integer('must be a whole number.'),
      v.minValue(0, 'must be 0 or more.'),
    ),
  ),
};

/** POST /inboxes/{id}/drafts (`resend.inboxes.drafts.create`): a reply names both `thread_id` and `reply_to_email_id`. */
export const CreateInboxDraftRequest = v.pipe(
  v.strictObject({
    ...DraftFields,
    thread_id: v.optional(v.pipe(v.string(), v.uuid('must be the id of a thread of the inbox.'))),
    reply_to_email_id: v.optional(v.pipe(v.string(), v.uuid('must be the id of an email of the thread.'))),
  }),
  v.check(
    (b) => (b.thread_id === undefined) === (b.reply_to_email_id === undefined),
    'A reply draft names both `thread_id` and `reply_to_email_id`; a new draft neither.',
  ),
);

/** PATCH /inboxes/{id}/drafts/{draft_id}: `attachments` replaces the draft's files ([] or null removes them); `revision` is the one edited (the latest when left out). */
export const UpdateInboxDraftRequest = v.strictObject(DraftFields);

/** POST /inboxes/{id}/drafts/{draft_id}/send */
export const SendInboxDraftRequest = v.optional(
  v.strictObject({
    headers: NotOnDrafts('headers', 'a mailbox sends its drafts with their own headers'),
    revision: DraftFields.revision,
  }),
);

/** The path of a draft's routes. */
export const DraftParams = v.object({
  ...InboxParams.entries,
  draft_id: v.pipe(v.string(), v.uuid('must be the id of a draft of the inbox.')),
});

const DraftAttachment = v.object({ id: v.string(), filename: v.string(), content_type: v.string(), size: v.number() });
const DRAFT_FIELDS = {
  id: Id,
  type: v.picklist(['standalone', 'reply']),
  to: v.nullable(v.array(v.string())),
  cc: v.array(v.string()),
  bcc: v.array(v.string()),
  subject: v.nullable(v.string()),
  thread_id: v.nullable(Id),
  reply_to_email_id: v.nullable(Id),
  attachments: v.array(DraftAttachment),
  revision: v.pipe(v.number(), v.description('The revision an edit names to be refused (409) if someone saved since.')),
  status: v.picklist(['draft', 'awaiting_approval', 'sending', 'sent', 'rejected']),
};

/** One draft (the SDK's `InboxDraft`). */
export const InboxDraftObject = v.object({
  object: v.literal('inbox_draft'),
  ...DRAFT_FIELDS,
  html: v.null(),
  text: v.nullable(v.string()),
  email_id: v.nullable(Id),
  created_at: Timestamp,
  updated_at: Timestamp,
});

/** A draft as lists show it (the SDK's `InboxDraftListItem`). */
export const InboxDraftRow = v.object({ ...DRAFT_FIELDS, snippet: v.nullable(v.string()), updated_at: Timestamp });

/** What a draft's write answers. */
export const SavedInboxDraft = v.object({ object: v.literal('inbox_draft'), id: Id, revision: v.number() });

/** What a send answers: the email's id (GET /emails/{id}). */
export const SentInboxDraft = v.object({
  id: v.pipe(Id, v.description('The email sent (GET /emails/{id}).')),
  draft_id: Id,
  revision: v.number(),
  duplicate: v.pipe(v.boolean(), v.description('True when this revision had been sent already: nothing new went out.')),
});

/** POST /inboxes/{id}/threads/{thread_id}/emails/{email_id}/reply (`threads.emails.reply`) */
export const ReplyInboxEmailRequest = v.strictObject({
  text: v.pipe(
    v.string('is required: a mailbox reply is plain text (`html` is not offered).'),
    v.minLength(1, 'must not be empty.'),
  ),
  html: DraftFields.html,
  cc: NotOnDrafts('cc', 'a reply goes to the sender, or with `reply_all` to everyone the email went to'),
  bcc: NotOnDrafts('bcc', 'a reply goes to the sender, or with `reply_all` to everyone the email went to'),
  subject: v.optional(v.pipe(v.string('must be a string.'), v.maxLength(998, 'must be at most 998 characters.'))),
  reply_all: v.optional(v.boolean('must be a boolean.')),
  attachments: v.optional(v.nullable(v.array(DraftFile, 'must be a list of {filename, content}.'))),
  headers: NotOnDrafts('headers', 'a mailbox sets In-Reply-To, References and its own headers'),
});

/** POST /inboxes/{id}/threads/{thread_id}/emails/{email_id}/forward (`threads.emails.forward`) */
export const ForwardInboxEmailRequest = v.strictObject({
  to: v.pipe(
    v.union([v.string(), v.array(v.string('must be an address.'))], 'is required: an address or a list of 1 to 20.'),
    v.transform((x) => (typeof x === 'string' ? [x] : x)),
    v.minLength(1, 'must name at least one recipient.'),
  ),
  text: v.optional(v.string('must be a string: the note above the forwarded message.')),
  html: DraftFields.html,
  cc: NotOnDrafts('cc', 'a forward goes to its `to` recipients (1 to 20)'),
  bcc: NotOnDrafts('bcc', 'a forward goes to its `to` recipients (1 to 20)'),
  subject: v.optional(v.pipe(v.string('must be a string.'), v.maxLength(998, 'must be at most 998 characters.'))),
  attachments: v.optional(v.nullable(v.array(DraftFile, 'must be a list of {filename, content}.'))),
  headers: NotOnDrafts('headers', 'a mailbox sets In-Reply-To, References and its own headers'),
});

/** What a reply or forward answers: the email sent, the draft it was made as, and its thread. */
export const SentInboxEmail = v.object({
  id: v.pipe(Id, v.description('The email sent (GET /emails/{id}).')),
  draft_id: Id,
  thread_id: v.nullable(Id),
});
