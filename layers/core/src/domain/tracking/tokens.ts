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

// A purpose prefix keeps tracking tokens and unsubscribe tokens from standing in for each other.
const mac = (secret: string, payload: string) => createHmac('sha256', secret).update(`track.${payload}`).digest('base64url');

/** A signed tracking token. */
export const signTracking = (deps: Deps, claims: TrackingClaims): string => {
  const payload = Buffer.from(JSON.stringify({ k: claims.kind, t: claims.teamId, e: claims.emailId, u: claims.url })).toString('base64url');
  return `${payload}.${mac(deps.config.TOKEN_SECRET, payload)}`;
};

/** The claims of a token whose signature holds; undefined for a tampered, foreign or malformed one. */
export const verifyTracking = (deps: Deps, token: string, kind: TrackingClaims['kind']): TrackingClaims | undefined => {
  const [payload, given] = token.split('.');
  if (!payload || !given) return undefined;
  const expected = Buffer.from(mac(deps.config.TOKEN_SECRET, payload));
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
