import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../../runtime/deps.ts';

/** What a tracking URL stands for: the pixel (`o`) or one rewritten link (`c`) of one email. */
export interface TrackingClaims {
  readonly kind: 'o' | 'c';
  readonly teamId: string;
  readonly emailId: string;
  /** The original link (clicks). */
  readonly url?: string | undefined;
}

/** A signing key of the link keyring. */
export interface TrackingKey {
  readonly id: string;
  readonly secret: string;
}

// A purpose prefix keeps tracking tokens and unsubscribe tokens from standing in for each other.
const mac = (secret: string, signed: string) =>
  createHmac('sha256', secret).update(`track.${signed}`).digest('base64url');

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** The key new tracking tokens are signed with (the link keyring's current key). */
export const trackingKey = (deps: Deps): Promise<TrackingKey> => deps.linkKeys.current();

/**
 * A signed tracking token, `<key id>.<claims>.<mac>`: the key id names the keyring key that
 * signed it, so keys rotate without breaking links already sent.
 */
export const signTracking = (key: TrackingKey, claims: TrackingClaims): string => {
  const payload = Buffer.from(
    JSON.stringify({ k: claims.kind, t: claims.teamId, e: claims.emailId, u: claims.url }),
  ).toString('base64url');
  return `${key.id}.${payload}.${mac(key.secret, `${key.id}.${payload}`)}`;
};

/** The claims of a token whose signature holds; undefined for a tampered, foreign or malformed one. */
export const verifyTracking = async (
  deps: Deps,
  token: string,
  kind: TrackingClaims['kind'],
): Promise<TrackingClaims | undefined> => {
  const [keyId, payload, given, ...rest] = token.split('.');
  if (!keyId || !payload || !given || rest.length > 0 || !KEY_ID.test(keyId)) return undefined;
  const secret = await deps.linkKeys.byId(keyId);
  if (!secret) return undefined;
  const expected = Buffer.from(mac(secret, `${keyId}.${payload}`));
  if (expected.length !== Buffer.byteLength(given) || !timingSafeEqual(expected, Buffer.from(given))) return undefined;
  try {
    const c = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (c.k !== kind || typeof c.t !== 'string' || typeof c.e !== 'string') return undefined;
    if (kind === 'c' && (typeof c.u !== 'string' || !/^https?:\/\//i.test(c.u))) return undefined;
    return { kind: c.k, teamId: c.t, emailId: c.e, url: c.u };
  } catch {
    return undefined;
  }
};
