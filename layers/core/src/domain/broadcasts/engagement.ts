import { createHash } from 'node:crypto';
import type { Deps } from '../../runtime/deps.ts';
import type { EmailItem } from '../emails/email.ts';
import { countRecipientClick, countRecipientOpen } from '../../table/broadcasts.ts';

/** A link's id in a broadcast's click counts: a UUID derived from its URL (the same URL, the same id). */
const linkId = (url: string): string => {
  const h = createHash('sha256').update(url).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

const ofBroadcast = (e: EmailItem) =>
  e.broadcast_id && e.contact_id
    ? { team_id: e.team_id, broadcast_id: e.broadcast_id, contact_id: e.contact_id }
    : undefined;

/** A person opened a broadcast email: counted on its recipient (other mail: nothing). */
export const broadcastOpened = async (deps: Deps, e: EmailItem): Promise<void> => {
  const ref = ofBroadcast(e);
  if (ref) await countRecipientOpen(deps, ref);
};

/** A person clicked a link of a broadcast email (delta 1), or a counted click turned out a machine's (-1). */
export const broadcastClicked = async (deps: Deps, e: EmailItem, url: string, delta: 1 | -1): Promise<void> => {
  const ref = ofBroadcast(e);
  if (ref) await countRecipientClick(deps, ref, linkId(url), url, delta);
};
