import * as v from 'valibot';
import { Id, Timestamp } from './common.ts';
import { MAX_MAILBOX_NAME_LENGTH } from '../domain/mailboxes/manage-mailboxes.ts';

const Name = (what: string) =>
  v.pipe(
    v.string(`must be a string: ${what}.`),
    v.maxLength(MAX_MAILBOX_NAME_LENGTH, `must be at most ${MAX_MAILBOX_NAME_LENGTH} characters.`),
  );

/** POST /inboxes (`resend.inboxes.create`): an inbox is a mailbox on a verified domain of the team. */
export const CreateInboxRequest = v.strictObject({
  email_address: v.pipe(
    v.string('is required: the address of the inbox, on a verified domain of the team (support@example.com).'),
    v.maxLength(320, 'must be at most 320 characters.'),
    v.email('must be an email address on a verified domain of the team (support@example.com).'),
  ),
  name: v.optional(Name("the inbox's name in lists")),
  from_name: v.optional(Name('the display name its mail goes out with')),
  forwarding: v.optional(
    v.pipe(
      v.boolean('must be a boolean.'),
      v.check(
        (on) => !on,
        'is not offered: an inbox keeps its mail, read through `inboxes.threads` or the receiving API; leave it out or send false.',
      ),
    ),
  ),
});

/** PATCH /inboxes/{id} (`resend.inboxes.update`): at least one of the two names. */
export const UpdateInboxRequest = v.pipe(
  v.strictObject({
    name: v.optional(Name("the inbox's name in lists")),
    from_name: v.optional(Name('the display name its mail goes out with')),
  }),
  v.check((b) => b.name !== undefined || b.from_name !== undefined, 'Give `name`, `from_name` or both.'),
);

/** The path of an inbox's routes: its id or its address. */
export const InboxParams = v.object({
  id: v.pipe(v.string(), v.minLength(1, 'is required: the inbox id or its email address.')),
});

/** An inbox as lists show it (the reference SDK's `Inbox`). */
export const InboxRow = v.object({
  id: Id,
  name: v.nullable(v.string()),
  email_address: v.string(),
  from_name: v.nullable(v.string()),
  unread: v.pipe(v.number(), v.description('Threads of the inbox not read yet (a counter kept on write).')),
  last_received: v.nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
});

/** GET /inboxes/{id} */
export const InboxObject = v.object({
  object: v.literal('inbox'),
  ...InboxRow.entries,
  name: v.string(),
  domain_id: Id,
  receiving_address: v.nullable(v.string()),
  drafts: v.pipe(v.number(), v.description('Drafts the inbox holds (a counter kept on write).')),
});
