import { validationError } from '../../../errors/api-error.ts';
import { MAX_CUSTOM_HEADERS, MAX_HEADER_NAME_LENGTH, MAX_HEADER_VALUE_LENGTH } from '../../../limits.ts';

const NAMED = ['In-Reply-To', 'References', 'Importance', 'Priority', 'Comments', 'Keywords', 'Organization'];
const DENIED_X_PREFIXES = ['x-ses-', 'x-mailstack-', 'x-resend-'];
const ALLOWED_TEXT =
  'Allowed: any X-* header (except X-SES-*, X-Mailstack-* and X-Resend-*), ' +
  `${NAMED.join(', ')}, and the pair List-Unsubscribe + List-Unsubscribe-Post.`;

// RFC 5322 field-name: printable US-ASCII except colon, at least one char.
const FIELD_NAME = /^[\x21-\x39\x3b-\x7e]+$/;
const ONE_CLICK = 'List-Unsubscribe=One-Click';

const isAllowedName = (name: string): boolean => {
  const lower = name.toLowerCase();
  if (lower.startsWith('x-')) return !DENIED_X_PREFIXES.some((prefix) => lower.startsWith(prefix));
  if (lower === 'list-unsubscribe' || lower === 'list-unsubscribe-post') return true;
  return NAMED.some((allowed) => allowed.toLowerCase() === lower);
};

const checkListUnsubscribe = (value: string): void => {
  const rest = value.trim();
  const targets: string[] = [];
  const item = /^\s*<([^<>\s]+)>\s*(,|$)/;
  let remaining = rest;
  while (remaining.length > 0) {
    const match = item.exec(remaining);
    if (match === null) {
      throw validationError(
        `\`headers.List-Unsubscribe\` must be one or more targets in angle brackets, comma separated, e.g. <https://example.com/unsub>, <mailto:unsub@example.com>; got ${JSON.stringify(value)}.`,
      );
    }
    targets.push(match[1]!);
    remaining = remaining.slice(match[0].length);
    if (match[2] === ',' && remaining.trim() === '') {
      throw validationError(
        '`headers.List-Unsubscribe` ends with a comma; list targets like <https://example.com/unsub>, <mailto:unsub@example.com>.',
      );
    }
  }
  if (targets.length === 0) {
    throw validationError('`headers.List-Unsubscribe` is empty; it needs at least one <https://...> target.');
  }
  for (const target of targets) {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      throw validationError(
        `\`headers.List-Unsubscribe\` target <${target}> is not a URL; only https: and mailto: targets are allowed.`,
      );
    }
    if (url.protocol !== 'https:' && url.protocol !== 'mailto:') {
      throw validationError(
        `\`headers.List-Unsubscribe\` target <${target}> uses ${url.protocol}; only https: and mailto: targets are allowed.`,
      );
    }
    if (url.protocol === 'https:' && url.hostname === '') {
      throw validationError(`\`headers.List-Unsubscribe\` target <${target}> has no host.`);
    }
  }
  if (!targets.some((target) => target.toLowerCase().startsWith('https://'))) {
    throw validationError(
      '`headers.List-Unsubscribe` needs at least one https target (one-click unsubscribe), e.g. <https://example.com/unsub>.',
    );
  }
};

/** Checks custom headers against the allowlist (spec send rule 5); returns them as given, or null when none. */
export const validateCustomHeaders = (
  headers: Readonly<Record<string, unknown>> | undefined | null,
): Record<string, string> | null => {
  if (headers === undefined || headers === null) return null;
  if (typeof headers !== 'object' || Array.isArray(headers)) {
    throw validationError('`headers` must be an object of header name to string value.');
  }
  const entries = Object.entries(headers);
  if (entries.length === 0) return null;
  if (entries.length > MAX_CUSTOM_HEADERS) {
    throw validationError(
      `\`headers\` holds ${entries.length} headers; at most ${MAX_CUSTOM_HEADERS} custom headers are allowed.`,
    );
  }
  const seen = new Map<string, string>();
  for (const [name, value] of entries) {
    if (!FIELD_NAME.test(name)) {
      throw validationError(
        `\`headers\` has an invalid header name ${JSON.stringify(name)}; names are printable ASCII without spaces or colons. ${ALLOWED_TEXT}`,
      );
    }
    if (name.length > MAX_HEADER_NAME_LENGTH) {
      throw validationError(
        `\`headers\` has a header name of ${name.length} characters; names are at most ${MAX_HEADER_NAME_LENGTH}.`,
      );
    }
    if (typeof value !== 'string') {
      throw validationError(`\`headers.${name}\` must be a string.`);
    }
    if (value.length > MAX_HEADER_VALUE_LENGTH) {
      throw validationError(
        `\`headers.${name}\` is ${value.length} characters long; a header value is at most ${MAX_HEADER_VALUE_LENGTH}.`,
      );
    }
    if (/[\r\n\0]/.test(value)) {
      throw validationError(`\`headers.${name}\` must not contain line breaks (CR/LF).`);
    }
    if (!isAllowedName(name)) {
      throw validationError(`\`headers.${name}\` is not an allowed custom header. ${ALLOWED_TEXT}`);
    }
    const lower = name.toLowerCase();
    if (seen.has(lower)) {
      throw validationError(`\`headers\` has ${name} twice (header names are case-insensitive).`);
    }
    seen.set(lower, value);
  }
  const unsub = seen.get('list-unsubscribe');
  const post = seen.get('list-unsubscribe-post');
  if ((unsub === undefined) !== (post === undefined)) {
    throw validationError(
      '`headers.List-Unsubscribe` and `headers.List-Unsubscribe-Post` must be sent together (List-Unsubscribe-Post: List-Unsubscribe=One-Click).',
    );
  }
  if (unsub !== undefined) checkListUnsubscribe(unsub);
  if (post !== undefined && post.trim() !== ONE_CLICK) {
    throw validationError(
      `\`headers.List-Unsubscribe-Post\` must be exactly "${ONE_CLICK}"; got ${JSON.stringify(post)}.`,
    );
  }
  return { ...headers } as Record<string, string>;
};

/** True when the headers carry both List-Unsubscribe and List-Unsubscribe-Post (any case). */
export const hasUnsubscribePair = (headers: Record<string, string> | null): boolean => {
  if (headers === null) return false;
  const names = Object.keys(headers).map((name) => name.toLowerCase());
  return names.includes('list-unsubscribe') && names.includes('list-unsubscribe-post');
};

// RFC 5322 msg-id, kept strict: <left@right>, printable ASCII, no spaces or angle brackets inside.
const MESSAGE_ID = /^<[\x21-\x3b\x3d\x3f-\x7e]+@[\x21-\x3b\x3d\x3f-\x7e]+>$/;

/** Checks a caller-chosen Message-ID (the SMTP relay keeps the message's own); returns it unchanged. */
export const validateMessageId = (value: string): string => {
  if (value.length > 998 || !MESSAGE_ID.test(value)) {
    throw validationError(
      `The Message-ID header must look like <unique-part@your-domain.com> (printable ASCII, at most 998 characters); got ${JSON.stringify(value.slice(0, 200))}.`,
    );
  }
  return value;
};
