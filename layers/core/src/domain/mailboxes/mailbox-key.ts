import { createHash } from 'node:crypto';
import type { Mailbox } from './mailbox.ts';
import { MailboxAgentError } from './agent-error.ts';

/**
 * Mailbox keys (spec §5, prefix `mmb_`): one mailbox each, with the permissions its owner chose
 * (read, draft, optionally send), an optional expiry; shown once, stored hashed, revocable
 * (effective on the next request). They are not API keys: each is refused where the other
 * belongs (their hashes live under different keys of the table).
 */

/** The prefix of every mailbox key. */
export const MAILBOX_KEY_PREFIX = 'mmb_';

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

export const hashOf = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export const keyFromItem = (i: Record<string, any>): MailboxKey => ({
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
