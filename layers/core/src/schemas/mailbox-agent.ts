import * as v from 'valibot';
import { MAILBOX_MAX_RECIPIENTS, MAILBOX_MAX_SUBJECT_LENGTH } from '../limits.ts';
import { describeIssue } from './validate.ts';
import { badRequest } from '../domain/mailboxes/agent-error.ts';

/**
 * The request bodies of the mailbox agent API (spec §4) and the mailbox MCP tools. Unknown
 * fields are ignored (agents send what they like); a wrong field is 400 naming it.
 */
const Uuid = (what: string) => v.pipe(v.string(`must be a string: ${what}.`), v.uuid(`must be a uuid: ${what}.`));
const Revision = v.pipe(v.number('must be a whole number: the revision you last saw (0 for a new draft).'), v.integer('must be a whole number.'), v.minValue(0, 'must be 0 or more.'));

export const SaveDraftRequest = v.object({
  id: v.optional(v.pipe(Uuid('the draft to edit'), v.description('The draft to edit (leave out for a new draft).'))),
  expectedRevision: v.pipe(Revision, v.description('The revision you last saw: 0 for a new draft, the latest revision to edit one.')),
  to: v.pipe(
    v.union([v.string(), v.array(v.string('must be an address.'))], 'must be an array of 1 to 20 addresses.'),
    // Described before the transform: the JSON schema of the input stops there.
    v.description(`The recipients: 1 to ${MAILBOX_MAX_RECIPIENTS} addresses.`),
    v.transform((to) => (typeof to === 'string' ? [to] : to)),
    v.minLength(1, 'must name at least one recipient.'),
    v.maxLength(MAILBOX_MAX_RECIPIENTS, `may name at most ${MAILBOX_MAX_RECIPIENTS} recipients.`),
  ),
  subject: v.optional(v.pipe(v.string('must be a string.'), v.maxLength(MAILBOX_MAX_SUBJECT_LENGTH, `must be at most ${MAILBOX_MAX_SUBJECT_LENGTH} characters.`), v.description('The subject line.')), ''),
  text: v.optional(v.pipe(v.string('must be a string.'), v.description('The plain-text body.')), ''),
  retainedAttachments: v.pipe(
    v.array(
      v.pipe(v.number('must be an attachment index of the source message.'), v.integer('must be a whole number.'), v.minValue(0, 'must be 0 or more.')),
      'is required (an array of attachment indexes of the source message; [] for none).',
    ),
    v.description('Indexes of the attachments of the source (the message answered, or the draft edited) to keep; [] for none.'),
  ),
  uploads: v.pipe(
    v.array(
      v.object({
        filename: v.pipe(v.string('must be a string.'), v.minLength(1, 'must not be empty.'), v.maxLength(255, 'must be at most 255 characters.'), v.regex(/^[^\\/\u0000-\u001f\u007f]+$/, 'must not contain slashes or control characters.')),
        base64: v.pipe(v.string('must be the file content in standard base64.'), v.regex(/^[A-Za-z0-9+/\s]*={0,2}\s*$/, 'must be the file content in standard base64.')),
      }, 'must be {filename, base64}.'),
      'is required (an array of {filename, base64}; [] for none).',
    ),
    v.description('New files, each {filename, base64} (standard base64), at most 256 KiB; [] for none.'),
  ),
  sourceItemId: v.optional(v.nullable(v.pipe(Uuid('the inbox message this draft answers (or, when editing, the draft itself)'), v.description('The inbox message this draft answers (a reply joins its thread); when editing, the draft\'s own id.')))),
});
export type SaveDraftRequest = v.InferOutput<typeof SaveDraftRequest>;

export const SendDraftRequest = v.object({
  id: v.pipe(Uuid('the draft to send'), v.description('The draft to send.')),
  expectedRevision: v.pipe(Revision, v.description('The revision you last saw (the one to send).')),
});
export type SendDraftRequest = v.InferOutput<typeof SendDraftRequest>;

/** Parses a mailbox agent body: 400 invalid_request naming each field at fault. */
export const parseAgentBody = <S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> => {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw badRequest('The request body must be a JSON object.');
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return result.output;
  throw badRequest(result.issues.slice(0, 5).map(describeIssue).join(' '));
};
