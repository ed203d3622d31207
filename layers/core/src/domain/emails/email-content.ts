import type { Deps } from '../../runtime/deps.ts';
import { CONTENT_INLINE_MAX_BYTES } from '../../limits.ts';
import { CONTENT_KEY_PREFIX } from '../../content-keys.ts';
import type { EmailItem } from './email.ts';
import { keys } from '../../table/keys.ts';
import { batchGetItems, getItem, queryAll, type Item } from '../../table/ops.ts';
import { itemSize } from '../../table/item-size.ts';
import { packJson, unpackJson } from '../../table/packed.ts';

/**
 * Message content off the row: an email's HTML and text bodies and its attachments, when larger
 * than CONTENT_INLINE_MAX_BYTES, live in the content store (S3), and the email's row keeps their
 * keys in `content_refs`. Smaller ones stay in the table: attachments in chunk items, bodies on
 * the row while it fits one write unit with them, else in the email's body item (`rowAndBody`).
 */

/** The `type` of an email's body item. */
const BODY_TYPE = 'email_body';

/** DynamoDB bills a write one unit per started KB of the item, in the table and in each index holding it. */
const WRITE_UNIT_BYTES = 1024;

/**
 * The items an email's row is stored as: the row, and its bodies apart in the body item
 * (keys.email.body, flagged `bodies_apart` on the row; compressed, `bodies`) when the row would
 * pass one write unit with them. The body item is written once, with the row; every later change
 * of the row (claimed, sent, delivered, opened...) then bills one unit in the table and in each
 * index that holds the row, instead of the bodies' size in each. A row that fits keeps its
 * bodies: one item, one read.
 */
export const rowAndBody = (row: Item & EmailItem): { row: Item & EmailItem; body?: Item } => {
  if ((row.html === null && row.text === null) || itemSize(row) <= WRITE_UNIT_BYTES) return { row };
  return {
    row: { ...row, html: null, text: null, bodies_apart: true },
    body: {
      ...keys.email.body(row.team_id, row.id),
      type: BODY_TYPE,
      bodies: packJson({ html: row.html, text: row.text } satisfies Bodies),
    },
  };
};

/** What a body item keeps, compressed (`bodies`). */
interface Bodies {
  readonly html: string | null;
  readonly text: string | null;
}

/** The row with the bodies of its body item in hand (as read; undefined when it was not found). */
const withBodyItem = (e: EmailItem, body: Item | undefined): EmailItem => {
  if (!e.bodies_apart || !body) return e;
  const { bodies_apart: _, ...row } = e;
  const { html, text } = unpackJson<Bodies>(body.bodies as Uint8Array);
  return { ...row, html, text };
};

/** Where each part of an email's content lives in the content store. */
export interface ContentRefs {
  readonly html?: string;
  readonly text?: string;
  /** Every attachment's bytes, concatenated in order (sizes on the row split them). */
  readonly attachments?: string;
}

/** The content-store key of one part of an email: `emails/<team>/<email>/<part>`. */
const contentKey = (teamId: string, emailId: string, part: keyof ContentRefs): string =>
  `${CONTENT_KEY_PREFIX}${teamId}/${emailId}/${part}`;

/**
 * Stores the parts of an email too large for its row, before the row is written (so a row never
 * names a missing blob; a blob whose row was never written expires with the bucket's lifecycle).
 * Returns what the row keeps: bodies (null when stored), the refs, and the attachment bytes left
 * for the row's chunk items. `inlineMax` is the largest body kept on the row.
 */
export const storeLargeContent = async (
  deps: Deps,
  teamId: string,
  emailId: string,
  content: { html: string | null; text: string | null; attachments: Buffer },
  inlineMax = CONTENT_INLINE_MAX_BYTES,
): Promise<{ html: string | null; text: string | null; refs: ContentRefs | undefined; inlineAttachments: Buffer }> => {
  const isLarge = (body: string | null): body is string => body !== null && Buffer.byteLength(body, 'utf8') > inlineMax;
  const refs: { html?: string; text?: string; attachments?: string } = {};
  const puts: Promise<void>[] = [];
  const keep = (part: 'html' | 'text', body: string | null): string | null => {
    if (!isLarge(body)) return body;
    refs[part] = contentKey(teamId, emailId, part);
    puts.push(deps.content.put(refs[part], Buffer.from(body, 'utf8')));
    return null;
  };
  const html = keep('html', content.html);
  const text = keep('text', content.text);
  let inlineAttachments = content.attachments;
  if (content.attachments.length > CONTENT_INLINE_MAX_BYTES) {
    refs.attachments = contentKey(teamId, emailId, 'attachments');
    puts.push(deps.content.put(refs.attachments, content.attachments));
    inlineAttachments = Buffer.alloc(0);
  }
  await Promise.all(puts);
  return { html, text, refs: Object.keys(refs).length ? refs : undefined, inlineAttachments };
};

const missing = (e: EmailItem, key: string) =>
  new Error(
    `email ${e.id}: its content ${key} is missing from the content store (expired after EMAIL_CONTENT_RETENTION_DAYS, or deleted)`,
  );

/**
 * Emails by team and id, each with its body item's bodies in hand: rows and body items in one
 * batch read (the send worker's batch). An email not found is left out.
 */
export const batchGetEmails = async (
  deps: Deps,
  wanted: readonly { readonly teamId: string; readonly emailId: string }[],
): Promise<EmailItem[]> => {
  const read = await batchGetItems(
    deps,
    wanted.flatMap((w) => [keys.email.item(w.teamId, w.emailId), keys.email.body(w.teamId, w.emailId)]),
  );
  const bodies = new Map(read.filter((i) => i.type === BODY_TYPE).map((i) => [i.pk as string, i]));
  return read.filter((i) => i.type === 'email').map((e) => withBodyItem(e as EmailItem, bodies.get(e.pk as string)));
};

/**
 * Emails with the bodies of their body items in hand, in one batch read for all of them (a list
 * page); bodies in the content store stay as the rows keep them (null).
 */
export const withBodyItems = async (deps: Deps, emails: readonly EmailItem[]): Promise<EmailItem[]> => {
  const apart = emails.filter((e) => e.bodies_apart);
  if (apart.length === 0) return [...emails];
  const read = await batchGetItems(
    deps,
    apart.map((e) => keys.email.body(e.team_id, e.id)),
    false,
  );
  const bodies = new Map(read.map((b) => [b.pk as string, b]));
  return emails.map((e) => withBodyItem(e, bodies.get(keys.email.item(e.team_id, e.id).pk)));
};

/**
 * The email with its bodies in hand: read from its body item when they are apart, and from the
 * content store where the row names them. A body past the store's retention reads as null, unless
 * `strict` (sending needs it: throws).
 */
export const withBodies = async (deps: Deps, row: EmailItem, { strict = false } = {}): Promise<EmailItem> => {
  let e = row;
  if (row.bodies_apart) {
    const body = await getItem(deps, keys.email.body(row.team_id, row.id));
    if (!body && strict)
      throw new Error(
        `email ${row.id}: its body item (${keys.email.body(row.team_id, row.id).sk}) is missing: the request that accepted it did not finish storing it`,
      );
    if (body) e = withBodyItem(row, body);
  }
  const refs = e.content_refs;
  if (!refs?.html && !refs?.text) return e;
  const body = async (key: string | undefined, onRow: string | null) => {
    if (!key) return onRow;
    const blob = await deps.content.get(key);
    if (!blob && strict) throw missing(e, key);
    return blob ? blob.toString('utf8') : null;
  };
  const [html, text] = await Promise.all([body(refs.html, e.html), body(refs.text, e.text)]);
  return { ...e, html, text };
};

/** The attachment bytes kept in the content store, or undefined when they are on the row. */
const storedAttachments = async (deps: Deps, e: EmailItem): Promise<Buffer | undefined> => {
  const key = e.content_refs?.attachments;
  if (!key) return undefined;
  const blob = await deps.content.get(key);
  if (!blob) throw missing(e, key);
  return blob;
};

/** An attachment of an email with its bytes, in the order it was sent. */
export interface AttachmentPart {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Buffer;
}

/** Every attachment of an email with its bytes: from the content store, or from the row's chunk items. */
export const attachmentParts = async (deps: Deps, e: EmailItem): Promise<AttachmentPart[]> => {
  if (e.attachments.length === 0) return [];
  const all =
    (await storedAttachments(deps, e)) ??
    Buffer.concat(
      (
        await queryAll(deps, {
          pk: keys.email.item(e.team_id, e.id).pk,
          prefix: keys.email.attachmentPrefix,
          consistent: true,
        })
      ).map((i) => Buffer.from(i.content as string, 'base64')),
    );
  let offset = 0;
  return e.attachments.map((a) => {
    const content = all.subarray(offset, offset + a.size);
    offset += a.size;
    return { filename: a.filename, contentType: a.content_type, content };
  });
};
