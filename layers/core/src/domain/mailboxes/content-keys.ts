import { MAILBOX_CONTENT_PREFIX } from '../../content-keys.ts';

/** The content-store key of a message's raw MIME: `mailboxes/<team>/<message>/raw.eml`. */
export const rawKeyOf = (teamId: string, messageId: string): string =>
  `${MAILBOX_CONTENT_PREFIX}${teamId}/${messageId}/raw.eml`;
