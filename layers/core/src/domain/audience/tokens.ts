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

/** A signed, non-expiring token (treat the URL as a secret). */
export const signLink = (deps: Deps, claims: LinkClaims): string => {
  const payload = Buffer.from(JSON.stringify({ k: claims.kind, t: claims.teamId, c: claims.contactId, e: claims.email, p: claims.topicId })).toString('base64url');
  return `${payload}.${sign(deps.config.TOKEN_SECRET, payload)}`;
};

/** The claims of a token whose signature holds; undefined for a tampered or foreign one. */
export const verifyLink = (deps: Deps, token: string, kind: LinkClaims['kind']): LinkClaims | undefined => {
  const [payload, mac] = token.split('.');
  if (!payload || !mac) return undefined;
  const expected = Buffer.from(sign(deps.config.TOKEN_SECRET, payload));
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
