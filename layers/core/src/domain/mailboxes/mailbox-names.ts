import { ApiError, validationError } from '../../errors/api-error.ts';
import { LOCAL_PART, MAX_LOCAL_PART_LENGTH } from './mailbox.ts';

/** A mailbox's display name: at most this many characters. */
export const MAX_MAILBOX_NAME_LENGTH = 100;

/** A mailbox address's local part, lowercased; 422 naming what is allowed otherwise. */
export const checkLocalPart = (raw: string): string => {
  const localPart = raw.trim().toLowerCase();
  if (!LOCAL_PART.test(localPart)) {
    throw validationError(
      `\`localPart\` must be 1 to ${MAX_LOCAL_PART_LENGTH} letters, digits and . _ + - (starting and ending with a letter or digit), the part before the @ of the mailbox address; got \`${raw}\`.`,
    );
  }
  return localPart;
};

/** A mailbox's display name, trimmed (null when blank); 422 past the length or with a line break, < > or ". */
export const checkName = (name: string | null | undefined, field = 'name'): string | null => {
  if (name === undefined || name === null || name.trim() === '') return null;
  if (name.length > MAX_MAILBOX_NAME_LENGTH || /[\r\n<>"]/.test(name))
    throw validationError(
      `\`${field}\` must be at most ${MAX_MAILBOX_NAME_LENGTH} characters without line breaks, < > or "; got \`${name.slice(0, 120)}\`.`,
    );
  return name.trim();
};

/** The 409 for an address that is already a mailbox, of any team. */
export const addressTaken = (address: string) =>
  new ApiError(
    'conflict',
    `The address ${address} is already a mailbox (of this or another team); choose another local part.`,
  );
