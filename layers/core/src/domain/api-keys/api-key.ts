import { createHash, randomBytes } from 'node:crypto';

/** What a key may do: everything, or only send email (spec §5), each with its label for people. */
export const PERMISSIONS = { full_access: 'Full access', sending_access: 'Sending access' } as const;
export type Permission = keyof typeof PERMISSIONS;

/** Whether a value (a form field, say) names a permission. */
export const isPermission = (value: unknown): value is Permission =>
  typeof value === 'string' && Object.hasOwn(PERMISSIONS, value);

/** An API key as stored: the secret itself is never kept, only its hash. */
export interface ApiKey {
  readonly id: string;
  readonly teamId: string;
  readonly name: string;
  readonly permission: Permission;
  /** When set, the key may send only from this domain id. */
  readonly domainId: string | null;
  readonly createdAt: string;
  readonly revoked: boolean;
  /** When the key last authenticated a request (kept to the minute). */
  readonly lastUsedAt: string | null;
}

/** Every key starts with this prefix. */
const KEY_PREFIX = 'ms_';

/** The stored hash of a key secret. */
export const hashKey = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** A new key secret: the prefix and 32 random bytes. */
export const newKeySecret = (): string => `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;

/** Item -> ApiKey. */
export const apiKeyFromItem = (item: Record<string, any>): ApiKey => ({
  id: item.id,
  teamId: item.team_id,
  name: item.name,
  permission: item.permission,
  domainId: item.domain_id ?? null,
  createdAt: item.created_at,
  revoked: item.revoked === true,
  lastUsedAt: item.last_used_at ?? null,
});
