import { MailboxAuthError, type MailboxCaller, keyFromItem, hashOf, MAILBOX_KEY_PREFIX } from './mailbox-key.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem } from '../../table/ops.ts';
import { findMembership } from '../people/membership.ts';
import { mailboxFromItem } from './mailbox.ts';
import { MailboxAgentError } from './agent-error.ts';
import { countFailedAuth } from '../rate-limits/request-rate.ts';

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
