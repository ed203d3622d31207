import { validationError } from '../../../errors/api-error.ts';
import { MAX_ATTACHMENTS, MAX_CONTENT_TYPE_LENGTH } from '../../../limits.ts';

/** One attachment after decoding its base64 content. */
export interface DecodedAttachment {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Buffer;
}

const TYPES: Readonly<Record<string, string>> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  txt: 'text/plain',
  csv: 'text/csv',
  html: 'text/html',
  htm: 'text/html',
  json: 'application/json',
  zip: 'application/zip',
  ics: 'text/calendar',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

const KNOWN_KEYS = new Set(['content', 'filename', 'content_type', 'contentType']);
/** Optional attachment fields whose zero value (`""`, null), as typed clients send them unset, reads as absent. */
const OPTIONAL_KEYS = ['path', 'content_id', 'contentId', 'inline_content_id', 'content_type', 'contentType'] as const;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/;
const CONTENT_TYPE = /^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/;

/** The content type a file name suggests (its extension), else application/octet-stream. */
export const typeFor = (filename: string): string => {
  const dot = filename.lastIndexOf('.');
  if (dot < 0) return 'application/octet-stream';
  return TYPES[filename.slice(dot + 1).toLowerCase()] ?? 'application/octet-stream';
};

/** Decodes standard or URL-safe base64, whitespace ignored; 422 naming `field` when it is not base64. */
export const decodeBase64 = (raw: string, field: string): Buffer => {
  const text = raw.replace(/\s+/g, '');
  const isStd = BASE64.test(text);
  if ((!isStd && !BASE64URL.test(text)) || text.replace(/=+$/, '').length % 4 === 1) {
    throw validationError(`\`${field}\` is not valid base64; send the file bytes base64-encoded.`);
  }
  if (text.includes('=') && text.length % 4 !== 0) {
    throw validationError(`\`${field}\` is not valid base64 (bad padding); send the file bytes base64-encoded.`);
  }
  return Buffer.from(text, isStd ? 'base64' : 'base64url');
};

/**
 * The file bytes as the SDKs send them: a base64 string, an array of byte values (the Go SDK, and
 * others encoding a byte array as numbers), or a Node.js Buffer as JSON (`{type: 'Buffer', data}`).
 * 422 naming `field` when it is none of these, or a value is not an integer from 0 to 255.
 */
const decodeContent = (raw: unknown, field: string): Buffer => {
  if (typeof raw === 'string') return decodeBase64(raw, field);
  const isBufferJson =
    raw !== null &&
    typeof raw === 'object' &&
    !Array.isArray(raw) &&
    (raw as { type?: unknown }).type === 'Buffer' &&
    Array.isArray((raw as { data?: unknown }).data);
  const bytes = isBufferJson ? (raw as { data: unknown[] }).data : raw;
  if (!Array.isArray(bytes)) {
    throw validationError(
      `\`${field}\` is required: the file bytes as a base64 string or an array of byte values (integers 0 to 255).`,
    );
  }
  const out = Buffer.allocUnsafe(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (typeof b !== 'number' || !Number.isInteger(b) || b < 0 || b > 255) {
      throw validationError(
        `\`${field}${isBufferJson ? '.data' : ''}[${i}]\` is ${JSON.stringify(b) ?? 'missing'}; an array of byte values holds integers from 0 to 255 only (or send the file base64-encoded).`,
      );
    }
    out[i] = b;
  }
  return out;
};

const human = (bytes: number): string =>
  bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MB`
    : `${bytes} bytes`;

/**
 * Decodes inline attachments, base64 or byte arrays (spec send rule 4); paths and content ids
 * are refused, total size capped. An optional field sent as `""` or null is absent.
 */
export const decodeAttachments = (
  input: readonly unknown[] | undefined | null,
  maxTotalBytes: number | null,
): DecodedAttachment[] => {
  if (input === undefined || input === null) return [];
  if (!Array.isArray(input)) throw validationError('`attachments` must be an array.');
  if (input.length > MAX_ATTACHMENTS)
    throw validationError(`\`attachments\` holds ${input.length} files; at most ${MAX_ATTACHMENTS} are allowed.`);
  let total = 0;
  const out = input.map((item: unknown, index): DecodedAttachment => {
    const at = `attachments[${index}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw validationError(
        `\`${at}\` must be an object with \`filename\` and \`content\` (base64 or an array of byte values).`,
      );
    }
    const record = { ...(item as Record<string, unknown>) };
    for (const key of OPTIONAL_KEYS) if (record[key] === '' || record[key] === null) delete record[key];
    if (record.path !== undefined) {
      throw validationError(
        `\`${at}.path\` is not supported: attachments are accepted as inline base64 \`content\` only; \`path\` URLs are never fetched.`,
      );
    }
    if (record.content_id !== undefined || record.contentId !== undefined || record.inline_content_id !== undefined) {
      throw validationError(
        `\`${at}.content_id\` is not supported: inline (cid:) attachments are not accepted; send a regular attachment with \`filename\` and base64 \`content\`.`,
      );
    }
    for (const key of Object.keys(record)) {
      if (!KNOWN_KEYS.has(key)) {
        throw validationError(
          `\`${at}.${key}\` is not a known attachment field; allowed: content, filename, content_type.`,
        );
      }
    }
    const { content, filename } = record;
    const declared = record.content_type ?? record.contentType;
    if (typeof filename !== 'string' || filename.trim() === '') {
      throw validationError(`\`${at}.filename\` is required: a non-empty file name such as "invoice.pdf".`);
    }
    if (filename.length > 255) throw validationError(`\`${at}.filename\` is longer than 255 characters.`);
    if (/[/\\]/.test(filename) || /[\0-\x1f\x7f]/.test(filename)) {
      throw validationError(
        `\`${at}.filename\` must be a plain file name without path separators (/ or \\) or control characters.`,
      );
    }
    if (
      declared !== undefined &&
      declared !== null &&
      (typeof declared !== 'string' ||
        declared.length > MAX_CONTENT_TYPE_LENGTH ||
        !CONTENT_TYPE.test(declared) ||
        /[\r\n]/.test(declared))
    ) {
      throw validationError(
        `\`${at}.content_type\` must be a MIME type such as "application/pdf" (at most ${MAX_CONTENT_TYPE_LENGTH} characters).`,
      );
    }
    const bytes = decodeContent(content, `${at}.content`);
    total += bytes.length;
    if (maxTotalBytes !== null && total > maxTotalBytes) {
      throw validationError(
        `\`attachments\` total ${human(total)} after decoding exceeds the limit of ${human(maxTotalBytes)} (${maxTotalBytes} bytes) for your plan.`,
      );
    }
    return {
      filename,
      contentType: typeof declared === 'string' ? declared : typeFor(filename),
      content: bytes,
    };
  });
  return out;
};
