import { createHash, randomBytes } from 'node:crypto';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, putItem, queryAll, updateItem } from '../../table/ops.ts';
import { ApiError, notFound, validationError } from '../../errors/api-error.ts';
import { MAX_KEY_NAME_LENGTH } from '../../limits.ts';
import { findMembership } from '../people/membership.ts';
import { loadMailbox, mailboxFromItem, type Mailbox } from './mailbox.ts';
import { MailboxAgentError } from './agent-error.ts';
import { countFailedAuth } from '../rate-limits/request-rate.ts';

/**
 * Mailbox keys (spec §5, prefix `mmb_`): one mailbox each, with the permissions its owner chose
 * (read, draft, optionally send), an optional expiry; shown once, stored hashed, revocable
 * (effective on the next request). They are not API keys: each is refused where the other
 * belongs (their hashes live under different keys of the table).
 */

/** The prefix of every mailbox key. */
const MAILBOX_KEY_PREFIX = 'mmb_';

/** What a mailbox key may do. */
export const MAILBOX_PERMISSIONS = ['read', 'draft', 'send'] as const;
export type MailboxPermission = (typeof MAILBOX_PERMISSIONS)[number];

/** A mailbox key's record (never its secret). */
export interface MailboxKey {
  readonly id: string;
  readonly teamId: string;
  readonly mailboxId: string;
  readonly name: string;
  readonly permissions: readonly MailboxPermission[];
  /** When it stops working (ISO), or null for never. */
  readonly expiresAt: string | null;
  readonly revoked: boolean;
  readonly createdBy: string;
  readonly createdAt: string;
}

const hashOf = (secret: string): string => createHash('sha256').update(secret).digest('hex');

const keyFromItem = (i: Record<string, any>): MailboxKey => ({
  id: i.id,
  teamId: i.team_id,
  mailboxId: i.mailbox_id,
  name: i.name ?? '',
  permissions: i.permissions ?? [],
  expiresAt: i.expires_at ?? null,
  revoked: i.revoked === true,
  createdBy: i.created_by,
  createdAt: i.created_at,
});

/**
 * Creates a key for a mailbox, by its owner only. read and draft always; send when asked. The
 * secret is returned once.
 */
export const createMailboxKey = async (
  deps: Deps,
  input: {
    teamId: string;
    mailboxId: string;
    actorUserId: string;
    name?: string;
    send: boolean;
    expiresAt?: string | null;
  },
): Promise<{ key: MailboxKey; secret: string }> => {
  const mailbox = await loadMailbox(deps, input.teamId, input.mailboxId);
  if (mailbox.ownerUserId !== input.actorUserId)
    throw new ApiError('forbidden', `Only the owner of ${mailbox.address} creates its keys.`);
  let expiresAt: string | null = null;
  if (input.expiresAt) {
    const at = Date.parse(input.expiresAt);
    if (Number.isNaN(at) || at <= deps.clock.now())
      throw validationError(`\`expiresAt\` must be a future ISO 8601 time; got \`${input.expiresAt}\`.`);
    expiresAt = new Date(at).toISOString();
  }
  const secret = `${MAILBOX_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const hash = hashOf(secret);
  const id = deps.ids.next();
  const item = {
    ...keys.mailbox.key(hash),
    ...keys.mailbox.keyListing(input.teamId, input.mailboxId, id),
    type: 'mailbox_key',
    id,
    hash,
    team_id: input.teamId,
    mailbox_id: input.mailboxId,
    name: input.name?.trim().slice(0, MAX_KEY_NAME_LENGTH) || 'Mailbox key',
    permissions: input.send ? ['read', 'draft', 'send'] : ['read', 'draft'],
    expires_at: expiresAt,
    revoked: false,
    created_by: input.actorUserId,
    created_at: new Date(deps.clock.now()).toISOString(),
  };
  if (!(await putItem(deps, item, { exists: false })))
    throw new Error('a new mailbox key collided with an existing one; create it again');
  return { key: keyFromItem(item), secret };
};

/** The keys of a mailbox, revoked ones included. */
export const listMailboxKeys = async (
  deps: Deps,
  teamId: string,
  mailboxId: string,
): Promise<(MailboxKey & { hash: string })[]> =>
  (await queryAll(deps, { ...keys.mailbox.keyListPartition(teamId, mailboxId) })).map((i) => ({
    ...keyFromItem(i),
    hash: i.hash as string,
  }));

/** Revokes a key (by the mailbox's owner); the next request with it is refused. 404 for a key of another mailbox. */
export const revokeMailboxKey = async (
  deps: Deps,
  input: { teamId: string; mailboxId: string; keyId: string; actorUserId: string },
): Promise<void> => {
  const mailbox = await loadMailbox(deps, input.teamId, input.mailboxId);
  if (mailbox.ownerUserId !== input.actorUserId)
    throw new ApiError('forbidden', `Only the owner of ${mailbox.address} revokes its keys.`);
  const found = (await listMailboxKeys(deps, input.teamId, input.mailboxId)).find((k) => k.id === input.keyId);
  if (!found) throw notFound('Mailbox key');
  await updateItem(
    deps,
    keys.mailbox.key(found.hash),
    { set: { revoked: true, revoked_at: new Date(deps.clock.now()).toISOString() } },
    { exists: true },
  );
};

/** Who calls the mailbox agent API: the one mailbox the key selects, and what the key may do there. */
export interface MailboxCaller {
  readonly key: MailboxKey;
  readonly mailbox: Mailbox;
  can(permission: MailboxPermission): boolean;
}

/** A refusal of a mailbox key: 401 (no key, not a mailbox key, unknown) or 403 (revoked, expired, mailbox or owner gone). */
export class MailboxAuthError extends MailboxAgentError {
  constructor(status: 401 | 403, message: string, name?: 'missing_mailbox_key' | 'invalid_mailbox_key') {
    super(status === 403 ? 'forbidden' : (name ?? 'invalid_mailbox_key'), message);
  }
}

/**
 * A presented credential that is no mailbox key: 401, counted against the address (spec §5 rule
 * 5, §8: more than 20 failed authentications a minute from one address give 429 with
 * Retry-After). A missing key is not a guess and is not counted.
 */
const refuseMailboxKey = async (deps: Deps, sourceIp: string | undefined, message: string): Promise<never> => {
  if (sourceIp !== undefined) {
    const { blocked, retryAfter } = await countFailedAuth(deps, sourceIp, 'mailbox');
    if (blocked)
      throw new MailboxAgentError(
        'rate_limit_exceeded',
        `Too many failed mailbox key attempts from this address. Check the key, then retry after the Retry-After header's ${retryAfter} seconds.`,
        retryAfter,
      );
  }
  throw new MailboxAuthError(401, message);
};

/**
 * The caller of a mailbox key from an Authorization header: 401 without a key or with one that is
 * not a mailbox key; 403 when it expired, was revoked, its mailbox is gone or its owner is no
 * longer a person of the team. Read strongly consistent, so revocation holds on the next request.
 */
export const authenticateMailboxKey = async (
  deps: Deps,
  authorization: string | undefined,
  sourceIp?: string,
): Promise<MailboxCaller> => {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match)
    throw new MailboxAuthError(
      401,
      'Missing mailbox key: send `Authorization: Bearer mmb_...` (a key the mailbox owner created in the dashboard).',
      'missing_mailbox_key',
    );
  const secret = match[1]!;
  if (!secret.startsWith(MAILBOX_KEY_PREFIX))
    return refuseMailboxKey(
      deps,
      sourceIp,
      'This is not a mailbox key (they start with `mmb_`): API keys and OAuth tokens are not accepted here.',
    );
  const item = await getItem(deps, keys.mailbox.key(hashOf(secret)));
  if (!item)
    return refuseMailboxKey(
      deps,
      sourceIp,
      'Unknown mailbox key: check it was copied whole, or ask the mailbox owner for a new one.',
    );
  const key = keyFromItem(item);
  if (key.revoked) throw new MailboxAuthError(403, 'This mailbox key was revoked by the mailbox owner.');
  if (key.expiresAt && Date.parse(key.expiresAt) <= deps.clock.now())
    throw new MailboxAuthError(
      403,
      `This mailbox key expired at ${key.expiresAt}; ask the mailbox owner for a new one.`,
    );
  const mailboxItem = await getItem(deps, keys.mailbox.item(key.teamId, key.mailboxId));
  if (!mailboxItem) throw new MailboxAuthError(403, 'The mailbox of this key no longer exists.');
  const mailbox = mailboxFromItem(mailboxItem);
  if (!(await findMembership(deps, mailbox.teamId, mailbox.ownerUserId)))
    throw new MailboxAuthError(
      403,
      `The owner of ${mailbox.address} is no longer a person of the team: its keys are suspended until a new owner is set.`,
    );
  return { key, mailbox, can: (p) => key.permissions.includes(p) };
};
