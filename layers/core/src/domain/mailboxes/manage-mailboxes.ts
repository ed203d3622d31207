import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { batchWriteItems, queryAll, transact, type Condition } from '../../table/ops.ts';
import { changeStorage } from './licenses.ts';
import { ApiError, notFound, validationError } from '../../errors/api-error.ts';
import { loadDomain, type Domain } from '../domains/domain.ts';
import { findMembership } from '../people/memberships.ts';
import { eventItem, publishEvents } from '../events/record-event.ts';
import { inboxView, type InboxEventSource } from './inbox-view.ts';
import { LOCAL_PART, MAX_LOCAL_PART_LENGTH, loadMailbox, mailboxFromItem, type Mailbox } from './mailbox.ts';

/** What a new mailbox is made of. */
export interface NewMailbox {
  readonly teamId: string;
  readonly domainId: string;
  /** The part before the @. */
  readonly localPart: string;
  /** Display name (the sender name of its mail). */
  readonly name?: string | null | undefined;
  /** The person of the team who owns it. */
  readonly ownerUserId: string;
  /** Its own name in lists (the reference inboxes' `name`), not shown on mail. */
  readonly title?: string | null | undefined;
  /** Who made it, for its `inbox.created` event. @default - 'dashboard' */
  readonly source?: InboxEventSource | undefined;
}

/** A mailbox's display name: at most this many characters. */
export const MAX_MAILBOX_NAME_LENGTH = 100;

const checkLocalPart = (raw: string): string => {
  const localPart = raw.trim().toLowerCase();
  if (!LOCAL_PART.test(localPart)) {
    throw validationError(
      `\`localPart\` must be 1 to ${MAX_LOCAL_PART_LENGTH} letters, digits and . _ + - (starting and ending with a letter or digit), the part before the @ of the mailbox address; got \`${raw}\`.`,
    );
  }
  return localPart;
};

const checkName = (name: string | null | undefined, field = 'name'): string | null => {
  if (name === undefined || name === null || name.trim() === '') return null;
  if (name.length > MAX_MAILBOX_NAME_LENGTH || /[\r\n<>"]/.test(name))
    throw validationError(
      `\`${field}\` must be at most ${MAX_MAILBOX_NAME_LENGTH} characters without line breaks, < > or "; got \`${name.slice(0, 120)}\`.`,
    );
  return name.trim();
};

const addressTaken = (address: string) =>
  new ApiError(
    'conflict',
    `The address ${address} is already a mailbox (of this or another team); choose another local part.`,
  );

const usableDomain = (d: Domain): void => {
  if (d.status !== 'verified') {
    throw validationError(
      `The domain ${d.name} is ${d.status}: a mailbox needs a verified domain (verify it with POST /domains/${d.id}/verify once its DNS records are published).`,
    );
  }
};

/** The domain's item gains a mailbox (and receiving, if it was off), while it is still verified. */
const domainGainsMailbox = (deps: Deps, d: Domain) => ({
  update: keys.domain.item(d.teamId, d.id),
  change: {
    add: { mailbox_count: 1 },
    set: d.receiving ? {} : { receiving: true, receiving_region: deps.config.AWS_REGION },
  },
  when: { and: [{ exists: true }, { attr: 'status', eq: 'verified' }] } as Condition,
});

/**
 * Creates a mailbox on a verified domain of the team; the domain's receiving is turned on (its
 * records gain the inbound MX). 422 when the domain is not verified or a field is wrong, 404 for
 * a domain or owner outside the team, 409 when the address is already a mailbox anywhere.
 */
export const createMailbox = async (deps: Deps, input: NewMailbox): Promise<Mailbox> => {
  const localPart = checkLocalPart(input.localPart);
  const name = checkName(input.name);
  const title = checkName(input.title, 'title');
  const domain = await loadDomain(deps, input.teamId, input.domainId);
  usableDomain(domain);
  if (!(await findMembership(deps, input.teamId, input.ownerUserId))) {
    throw validationError(
      `The owner ${input.ownerUserId} is not a person of this team: a mailbox's owner must be a member (invite them first).`,
    );
  }
  const id = deps.ids.next();
  const address = `${localPart}@${domain.name}`;
  const now = new Date(deps.clock.now()).toISOString();
  const item = {
    ...keys.mailbox.item(input.teamId, id),
    type: 'mailbox',
    id,
    team_id: input.teamId,
    domain_id: domain.id,
    local_part: localPart,
    address,
    name,
    ...(title ? { title } : {}),
    owner_user_id: input.ownerUserId,
    created_at: now,
    updated_at: now,
  };
  const created = eventItem(deps, input.teamId, 'inbox.created', {
    source: input.source ?? 'dashboard',
    inbox_id: id,
    inbox: inboxView(mailboxFromItem(item)),
  });
  const written = await transact(deps, [
    { put: item, when: { exists: false } },
    {
      put: { ...keys.mailbox.addressGuard(address), type: 'mailbox_address', team_id: input.teamId, mailbox_id: id },
      when: { exists: false },
    },
    domainGainsMailbox(deps, domain),
    { put: created.item },
  ]);
  if (!written.ok) {
    if (written.failed === 1) throw addressTaken(address);
    usableDomain(await loadDomain(deps, input.teamId, input.domainId));
    throw new ApiError('conflict', 'The mailbox could not be created; retry.');
  }
  await publishEvents(deps, [created.record]);
  return mailboxFromItem(item);
};

/** The mailboxes of a team, oldest first (a team has few). */
export const listMailboxes = async (deps: Deps, teamId: string): Promise<Mailbox[]> =>
  (await queryAll(deps, { pk: keys.mailbox.partition(teamId), prefix: keys.mailbox.prefix })).map(mailboxFromItem);

/** A team's mailbox by id (404 for another team's). */
export const getMailbox = (deps: Deps, teamId: string, mailboxId: string): Promise<Mailbox> =>
  loadMailbox(deps, teamId, mailboxId);

/**
 * Renames a mailbox: a new local part (its address moves; mail to the old address is no longer
 * accepted) and/or a new display name. 409 when the new address is already a mailbox.
 */
export const renameMailbox = async (
  deps: Deps,
  teamId: string,
  mailboxId: string,
  change: { localPart?: string | undefined; name?: string | null | undefined; title?: string | null | undefined },
  source: InboxEventSource = 'dashboard',
): Promise<Mailbox> => {
  const m = await loadMailbox(deps, teamId, mailboxId);
  const localPart = change.localPart === undefined ? m.localPart : checkLocalPart(change.localPart);
  const name = change.name === undefined ? m.name : checkName(change.name);
  const title = change.title === undefined ? m.title : checkName(change.title, 'title');
  const domainName = m.address.slice(m.address.indexOf('@') + 1);
  const address = `${localPart}@${domainName}`;
  const now = new Date(deps.clock.now()).toISOString();
  const set = { local_part: localPart, address, name, title, updated_at: now };
  const moves = address !== m.address;
  const renamed = { ...m, localPart, address, name, title, updatedAt: now };
  const updated = eventItem(deps, teamId, 'inbox.updated', { source, inbox_id: m.id, inbox: inboxView(renamed) });
  const written = await transact(deps, [
    { put: updated.item },
    { update: keys.mailbox.item(teamId, mailboxId), change: { set }, when: { attr: 'address', eq: m.address } },
    ...(moves
      ? [
          {
            put: {
              ...keys.mailbox.addressGuard(address),
              type: 'mailbox_address',
              team_id: teamId,
              mailbox_id: mailboxId,
            },
            when: { exists: false },
          },
          { delete: keys.mailbox.addressGuard(m.address), when: { attr: 'mailbox_id', eq: mailboxId } },
        ]
      : []),
  ]);
  if (!written.ok) {
    if (written.failed === 2) throw addressTaken(address);
    throw new ApiError(
      'conflict',
      `The mailbox ${m.address} changed meanwhile (renamed or deleted); read it again and retry.`,
    );
  }
  await publishEvents(deps, [updated.record]);
  return renamed;
};

/**
 * Deletes a mailbox: its address stops accepting mail at once and the domain counts one mailbox
 * less; its drafts are discarded and their storage given back. Its stored messages stay
 * readable through the receiving API until erased.
 */
export const deleteMailbox = async (
  deps: Deps,
  teamId: string,
  mailboxId: string,
  source: InboxEventSource = 'dashboard',
): Promise<Mailbox> => {
  const m = await loadMailbox(deps, teamId, mailboxId);
  const deleted = eventItem(deps, teamId, 'inbox.deleted', { source, inbox_id: m.id });
  const written = await transact(deps, [
    { put: deleted.item },
    { delete: keys.mailbox.item(teamId, mailboxId), when: { attr: 'address', eq: m.address } },
    { delete: keys.mailbox.addressGuard(m.address), when: { attr: 'mailbox_id', eq: mailboxId } },
    { update: keys.domain.item(teamId, m.domainId), change: { add: { mailbox_count: -1 } }, when: { exists: true } },
  ]);
  if (!written.ok) throw notFound('Mailbox');
  await publishEvents(deps, [deleted.record]);
  await discardDrafts(deps, m);
  return m;
};

/**
 * A deleted mailbox's drafts go with it: their rows and attachment bytes are removed and the
 * storage they held is given back to the team (its received mail stays, readable until erased).
 */
const discardDrafts = async (deps: Deps, m: Mailbox): Promise<void> => {
  const drafts = await queryAll(deps, {
    pk: keys.mailbox.threadPartition(m.teamId, m.id),
    prefix: keys.mailbox.draftPrefix,
  });
  if (drafts.length === 0) return;
  const sent = new Set<string>();
  // Attachments a sent copy still names stay (its message row points at them).
  for (const d of drafts)
    if (d.sent_revision !== undefined && d.sent_revision !== null)
      for (const a of d.attachments ?? []) sent.add(a.content_key);
  for (const d of drafts)
    for (const a of d.attachments ?? []) if (!sent.has(a.content_key)) await deps.content.delete(a.content_key);
  await batchWriteItems(deps, { delete: drafts.map((d) => ({ pk: d.pk, sk: d.sk })) });
  await changeStorage(deps, m.teamId, -drafts.reduce((n, d) => n + Number(d.size_bytes ?? 0), 0));
};
