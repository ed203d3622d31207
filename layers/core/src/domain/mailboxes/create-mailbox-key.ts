import { keyFromItem, hashOf, type MailboxKey, MAILBOX_KEY_PREFIX } from './mailbox-key.ts';
import { randomBytes } from 'node:crypto';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { putItem } from '../../table/ops.ts';
import { ApiError, validationError } from '../../errors/api-error.ts';
import { MAX_KEY_NAME_LENGTH } from '../../limits.ts';
import { loadMailbox } from './mailbox.ts';

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
