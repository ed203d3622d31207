import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../../runtime/deps.ts';

/** What a preference or unsubscribe link stands for. */
export interface LinkClaims {
  /** `p`: the preference page of a contact; `u`: a one-click unsubscribe. */
  readonly kind: 'p' | 'u';
  readonly teamId: string;
  readonly contactId?: string | undefined;
  readonly email?: string | undefined;
  readonly topicId?: string | undefined;
}

const sign = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * A signed, non-expiring token (treat the URL as a secret): `<key id>.<claims>.<mac>`, the key
 * id naming the key that signed it, so keys can rotate without breaking links already sent.
 */
export const signLink = async (deps: Deps, claims: LinkClaims): Promise<string> => {
  const key = await deps.linkKeys.current();
  const payload = Buffer.from(
    JSON.stringify({ k: claims.kind, t: claims.teamId, c: claims.contactId, e: claims.email, p: claims.topicId }),
  ).toString('base64url');
  return `${key.id}.${payload}.${sign(key.secret, `${key.id}.${payload}`)}`;
};

/** The claims of a token whose signature holds; undefined for a tampered or foreign one. */
export const verifyLink = async (
  deps: Deps,
  token: string,
  kind: LinkClaims['kind'],
): Promise<LinkClaims | undefined> => {
  const parts = token.split('.');
  // Two parts: a link from before key ids, signed with the first key.
  const [keyId, payload, mac] = parts.length === 2 ? [undefined, parts[0], parts[1]] : parts;
  if (parts.length > 3 || !payload || !mac || (keyId !== undefined && !KEY_ID.test(keyId))) return undefined;
  const secret = keyId === undefined ? (await deps.linkKeys.current()).secret : await deps.linkKeys.byId(keyId);
  if (!secret) return undefined;
  const expected = Buffer.from(sign(secret, keyId === undefined ? payload : `${keyId}.${payload}`));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  try {
    const c = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (c.k !== kind || typeof c.t !== 'string') return undefined;
    return { kind: c.k, teamId: c.t, contactId: c.c, email: c.e, topicId: c.p };
  } catch {
    return undefined;
  }
};
