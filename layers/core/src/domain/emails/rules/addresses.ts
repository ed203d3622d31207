import { domainToASCII } from 'node:url';
import addrs from 'email-addresses';
import { validationError } from '../../../errors/api-error.ts';
import { MAX_DISPLAY_NAME_LENGTH } from '../../../limits.ts';

/** One accepted mailbox: display name (or null), bare address, and the `Name <user@host>` form. */
export interface Mailbox {
  readonly name: string | null;
  readonly address: string;
  readonly formatted: string;
}

// Characters that force a display name into a quoted-string (RFC 5322 "specials").
const SPECIALS = /[()<>[\]:;@\\,."]/;

/** `Name <address>` (the name quoted when RFC 5322 needs it), or the bare address without a name. */
export const formatMailbox = (name: string | null, address: string): string => {
  if (name === null) return address;
  const shown = SPECIALS.test(name) ? `"${name.replace(/(["\\])/g, '\\$1')}"` : name;
  return `${shown} <${address}>`;
};

// Address itself: local@domain, no whitespace, domain has a dot and sane labels (unicode allowed).
const LOCAL = /^[^\s@<>()[\]\\,;:"]+$|^"[^"\r\n]*"$/u;
const LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}\p{M}-]*[\p{L}\p{N}\p{M}])?$/u;

/** Whether `address` is a bare address the service accepts (the one rule for recipients, senders, contacts and suppressions). */
export const validAddress = (address: string): boolean => {
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return false;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (local.length > 64 || domain.length > 253 || /\s/u.test(address)) return false;
  if (!LOCAL.test(local) || local.startsWith('.') || local.endsWith('.') || local.includes('..')) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  return labels.every((label) => label.length > 0 && label.length <= 63 && LABEL.test(label));
};

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * The address as the provider takes it (SES has no SMTPUTF8: 7-bit ASCII only): a Unicode domain
 * in its Punycode form (`bücher.de` → `xn--bcher-kva.de`), an ASCII domain as written. The local
 * part is left as it is (a non-ASCII one cannot be written in ASCII; the provider refuses it).
 */
const asciiDomain = (address: string): string => {
  const at = address.lastIndexOf('@');
  const domain = address.slice(at + 1);
  if (at < 0 || !NON_ASCII.test(domain)) return address;
  return `${address.slice(0, at)}@${domainToASCII(domain) || domain}`;
};

/** The bare address of a stored mailbox as the provider takes it (its domain in Punycode). */
export const wireAddress = (mailbox: string): string => asciiDomain(bareAddress(mailbox));

const FORMS = 'Allowed forms: user@example.com, Name <user@example.com>, or "Last, First" <user@example.com>.';

/** Parses exactly one RFC 5322 mailbox; anything else is a 422 naming the field. */
export const parseMailbox = (input: string, field: string): Mailbox => {
  if (typeof input !== 'string' || input.trim() === '') {
    throw validationError(`\`${field}\` must be one email address; got an empty value. ${FORMS}`);
  }
  if (/[\r\n]/.test(input)) {
    throw validationError(`\`${field}\` must not contain line breaks. ${FORMS}`);
  }
  const text = input.trim();
  const parsed = addrs.parseAddressList({ input: text, rfc6532: true, rejectTLD: false });
  if ((parsed === null || parsed.length === 0) && text.replace(/"(?:[^"\\]|\\.)*"/g, '').includes(',')) {
    throw validationError(
      `\`${field}\` reads as more than one address in ${JSON.stringify(input)}; each value must be exactly one mailbox. ` +
        'A display name containing a comma must be quoted: "Last, First" <user@example.com>.',
    );
  }
  if (parsed === null || parsed.length === 0) {
    throw validationError(`\`${field}\` is not a valid email address: ${JSON.stringify(input)}. ${FORMS}`);
  }
  if (parsed.length > 1) {
    throw validationError(
      `\`${field}\` holds ${parsed.length} addresses in ${JSON.stringify(input)}; each value must be exactly one mailbox. ` +
        'If the display name contains a comma, quote it: "Last, First" <user@example.com>.',
    );
  }
  const one = parsed[0]!;
  if (one.type !== 'mailbox') {
    throw validationError(`\`${field}\` must be one mailbox, not a group (${JSON.stringify(input)}). ${FORMS}`);
  }
  const address = one.address;
  if (!validAddress(address)) {
    throw validationError(
      `\`${field}\` has an invalid address ${JSON.stringify(address)}; expected local@domain with a dotted domain. ${FORMS}`,
    );
  }
  if (NON_ASCII.test(address.slice(0, address.lastIndexOf('@')))) {
    throw validationError(
      `\`${field}\` has non-ASCII characters before the @ in ${JSON.stringify(address)}; the provider (Amazon SES, without SMTPUTF8) ` +
        'takes only 7-bit ASCII in the local part. A Unicode domain is fine (it is sent in its Punycode form).',
    );
  }
  const ascii = asciiDomain(address);
  if (!validAddress(ascii)) {
    throw validationError(
      `\`${field}\` has a domain that has no ASCII (Punycode) form in ${JSON.stringify(address)}. ${FORMS}`,
    );
  }
  const rawName = one.name === null ? null : one.name.trim();
  const name = rawName === null || rawName === '' ? null : rawName;
  if (name !== null && name.length > MAX_DISPLAY_NAME_LENGTH) {
    throw validationError(
      `\`${field}\` has a display name of ${name.length} characters; a display name is at most ${MAX_DISPLAY_NAME_LENGTH}.`,
    );
  }
  if (name?.includes('@')) {
    throw validationError(
      `\`${field}\` display name ${JSON.stringify(name)} contains an at-sign (@); display names may not look like addresses.`,
    );
  }
  return { name, address: ascii, formatted: formatMailbox(name, ascii) };
};

/** Parses a single value or a list of values, each exactly one mailbox; absent gives []. */
export const parseMailboxList = (input: string | readonly string[] | undefined | null, field: string): Mailbox[] => {
  if (input === undefined || input === null) return [];
  if (typeof input === 'string') return [parseMailbox(input, field)];
  if (!Array.isArray(input)) {
    throw validationError(`\`${field}\` must be an email address or an array of email addresses.`);
  }
  return input.map((item, index) => {
    if (typeof item !== 'string') {
      throw validationError(`\`${field}[${index}]\` must be a string holding one email address.`);
    }
    return parseMailbox(item, `${field}[${index}]`);
  });
};

/** The bare address of a stored mailbox (`Name <user@host>` or `user@host`). */
export const bareAddress = (mailbox: string): string => /<([^>]+)>\s*$/.exec(mailbox)?.[1] ?? mailbox;

/** `reply_to` as a template or broadcast stores it: a list, or null when not given. */
export const replyToList = (r: string | string[] | null | undefined): string[] | null =>
  r === undefined || r === null ? null : Array.isArray(r) ? r : [r];
