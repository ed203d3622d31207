import emailAddresses from 'email-addresses';
import { validationError } from '../../../errors/api-error.ts';

/** One mailbox: an optional display name and an address. */
export interface Mailbox {
  readonly name: string | null;
  readonly address: string;
  /** How it reads back: `Name <user@host>` (name quoted when it needs it) or the bare address. */
  readonly formatted: string;
}

const ADDRESS = /^[^\s@"(),:;<>[\]\\]+@(?=[^\s@]{1,253}$)([^\s@.]+\.)+[^\s@.]{2,}$/u;
const NEEDS_QUOTES = /[()<>[\]:;@\\,."]/;

/** `Name <user@host>`, quoting the name when it holds specials such as a comma. */
const format = (name: string | null, address: string): string => {
  if (!name) return address;
  const shown = NEEDS_QUOTES.test(name) ? `"${name.replace(/(["\\])/g, '\\$1')}"` : name;
  return `${shown} <${address}>`;
};

/**
 * Parses exactly one RFC 5322 mailbox: a bare address, `Name <address>` or `"Quoted, Name" <address>`.
 * An unquoted comma reads as two addresses and is refused, so is an at-sign in the display name.
 */
export const parseMailbox = (input: string, field: string): Mailbox => {
  const text = typeof input === 'string' ? input.trim() : '';
  if (!text) throw validationError(`\`${field}\` must be an email address such as \`jane@example.com\` or \`Jane Doe <jane@example.com>\`.`);
  const parsed = emailAddresses.parseAddressList({ input: text, rfc6532: true });
  if (!parsed || parsed.length === 0) {
    const unquoted = text.replace(/"(?:[^"\\]|\\.)*"/g, '');
    const hint = /@[^<]*</.test(unquoted) ? ' A display name may not contain an at-sign.'
      : unquoted.includes(',') ? ' An unquoted comma reads as two addresses; a display name with a comma must be quoted: `"Doe, Jane" <jane@example.com>`.' : '';
    throw validationError(`\`${field}\` is not a valid address: \`${text}\`. Use \`jane@example.com\` or \`Jane Doe <jane@example.com>\`.${hint}`);
  }
  if (parsed.length > 1) {
    throw validationError(`\`${field}\` must hold exactly one address, got ${parsed.length} in \`${text}\`. A display name with a comma must be quoted: \`"Doe, Jane" <jane@example.com>\`.`);
  }
  const box = parsed[0]!;
  if (box.type !== 'mailbox') throw validationError(`\`${field}\` must be a single mailbox, not a group: \`${text}\`.`);
  const name = box.name?.trim() || null;
  if (name?.includes('@')) throw validationError(`\`${field}\` has an at-sign in its display name (\`${name}\`); display names may not contain \`@\`.`);
  const address = box.address;
  if (!ADDRESS.test(address)) throw validationError(`\`${field}\` is not a valid address: \`${address}\`.`);
  return { name, address, formatted: format(name, address) };
};

/** Parses a field that takes one address or a list of them; each element must be one mailbox. */
export const parseMailboxList = (input: string | readonly string[] | undefined | null, field: string): Mailbox[] => {
  if (input === undefined || input === null) return [];
  const list = typeof input === 'string' ? [input] : input;
  return list.map((one, i) => parseMailbox(one, typeof input === 'string' ? field : `${field}[${i}]`));
};
