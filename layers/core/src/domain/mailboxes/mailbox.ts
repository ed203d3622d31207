import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem } from '../../table/ops.ts';
import { notFound } from '../../errors/api-error.ts';

/**
 * A named mailbox: an address on one of the team's verified domains with receiving enabled,
 * owned by a person of the team. Mail to the address lands in its folders, grouped in threads.
 */
export interface Mailbox {
  readonly id: string;
  readonly teamId: string;
  readonly domainId: string;
  /** The part before the @ (lower case). */
  readonly localPart: string;
  /** `<localPart>@<domain name>` (lower case); unique across the service. */
  readonly address: string;
  /** A display name (the sender name of its mail), or null. */
  readonly name: string | null;
  /** The person who owns it (a member of the team). */
  readonly ownerUserId: string;
  /** Its own name in lists (the reference inboxes' `name`; `name` above is what its mail goes out with), or null. */
  readonly title: string | null;
  /** Counters kept on write (never counted by a scan): threads not read, drafts kept, the last message received. */
  readonly unread: number;
  readonly drafts: number;
  readonly lastReceivedAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The folders a message or thread can be in (the reference inboxes' set). */
const MAILBOX_FOLDERS = ['inbox', 'archive', 'spam', 'sent', 'trash'] as const;
export type MailboxFolder = (typeof MAILBOX_FOLDERS)[number];

/** A mailbox's local part: letters, digits and . _ + - (lower-cased), at most MAX_LOCAL_PART_LENGTH characters. */
export const MAX_LOCAL_PART_LENGTH = 64;
export const LOCAL_PART = new RegExp(`^[a-z0-9](?:[a-z0-9._+-]{0,${MAX_LOCAL_PART_LENGTH - 2}}[a-z0-9])?$`);

/** Item -> Mailbox. */
export const mailboxFromItem = (i: Record<string, any>): Mailbox => ({
  id: i.id,
  teamId: i.team_id,
  domainId: i.domain_id,
  localPart: i.local_part,
  address: i.address,
  name: i.name ?? null,
  ownerUserId: i.owner_user_id,
  title: i.title ?? null,
  unread: Math.max(0, Number(i.unread_count ?? 0)),
  drafts: Math.max(0, Number(i.draft_count ?? 0)),
  lastReceivedAt: i.last_received_at ?? null,
  createdAt: i.created_at,
  updatedAt: i.updated_at ?? i.created_at,
});

/** A team's mailbox by id; another team's id answers 404. */
export const loadMailbox = async (deps: Deps, teamId: string, mailboxId: string): Promise<Mailbox> => {
  const item = await getItem(deps, keys.mailbox.item(teamId, mailboxId));
  if (!item) throw notFound('Mailbox');
  return mailboxFromItem(item);
};

/** The mailbox an address belongs to, whichever team holds it; undefined when no mailbox has it. */
export const findMailboxByAddress = async (deps: Deps, address: string): Promise<Mailbox | undefined> => {
  const guard = await getItem(deps, keys.mailbox.addressGuard(address), false);
  if (!guard) return undefined;
  const item = await getItem(deps, keys.mailbox.item(guard.team_id, guard.mailbox_id), false);
  return item ? mailboxFromItem(item) : undefined;
};
