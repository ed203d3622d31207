import { validationError } from '../../../errors/api-error.ts';

/** An attachment after decoding. */
export interface DecodedAttachment {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Buffer;
}

const TYPES: Record<string, string> = {
  pdf: 'application/pdf', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml',
  txt: 'text/plain', csv: 'text/csv', html: 'text/html', htm: 'text/html', json: 'application/json', xml: 'application/xml',
  zip: 'application/zip', ics: 'text/calendar', doc: 'application/msword', xls: 'application/vnd.ms-excel',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};
const BASE64 = /^[A-Za-z0-9+/\r\n]*={0,2}$/;

const typeOf = (filename: string): string => TYPES[filename.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';

/**
 * Decodes inline base64 attachments (spec send rule 4): `path` URLs are refused and never
 * fetched, `content_id` is refused, and the decoded total is capped.
 */
export const decodeAttachments = (input: readonly unknown[] | undefined | null, maxTotalBytes: number | null): DecodedAttachment[] => {
  if (!input) return [];
  let total = 0;
  const out = input.map((raw, i) => {
    const at = `attachments[${i}]`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw validationError(`\`${at}\` must be an object with \`filename\` and base64 \`content\`.`);
    const a = raw as Record<string, unknown>;
    if (a.path !== undefined) throw validationError(`\`${at}.path\`: attachments are accepted as inline base64 \`content\` only; URLs are never fetched.`);
    if (a.content_id !== undefined) throw validationError(`\`${at}.content_id\`: inline (cid) attachments are not supported; send a regular attachment.`);
    for (const key of Object.keys(a)) {
      if (!['content', 'filename', 'content_type'].includes(key)) throw validationError(`\`${at}.${key}\` is not a supported field.`);
    }
    if (typeof a.content !== 'string' || a.content.length === 0) throw validationError(`\`${at}.content\` is required: the file as a base64 string.`);
    if (!BASE64.test(a.content)) throw validationError(`\`${at}.content\` is not valid base64.`);
    if (typeof a.filename !== 'string' || !a.filename.trim() || /[/\\]/.test(a.filename) || a.filename.length > 255) {
      throw validationError(`\`${at}.filename\` is required: a file name without path separators, at most 255 characters.`);
    }
    if (a.content_type !== undefined && (typeof a.content_type !== 'string' || !/^[\w.+-]+\/[\w.+-]+$/.test(a.content_type))) {
      throw validationError(`\`${at}.content_type\` must be a MIME type such as \`application/pdf\`.`);
    }
    const content = Buffer.from(a.content, 'base64');
    total += content.length;
    return { filename: a.filename, contentType: (a.content_type as string | undefined) ?? typeOf(a.filename), content };
  });
  if (maxTotalBytes !== null && total > maxTotalBytes) {
    throw validationError(`\`attachments\` total ${total} bytes after decoding; this plan allows ${maxTotalBytes} bytes (${maxTotalBytes / 1_000_000} MB) per email.`);
  }
  return out;
};
