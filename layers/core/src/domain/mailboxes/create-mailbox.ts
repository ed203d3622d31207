import { addressTaken, checkName, checkLocalPart } from './mailbox-names.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { transact, type Condition } from '../../table/ops.ts';
import { ApiError, validationError } from '../../errors/api-error.ts';
import { loadDomain, type Domain } from '../domains/domain.ts';
import { findMembership } from '../people/membership.ts';
import { eventItem, publishEvents } from '../events/record-event.ts';
import { inboxView, type InboxEventSource } from './inbox-view.ts';
import { mailboxFromItem, type Mailbox } from './mailbox.ts';

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
