import { createHash, randomBytes } from 'node:crypto';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, putItem, updateItem } from '../../table/ops.ts';

/** What a one-time token is for. */
export type TokenKind = 'sign_in' | 'password_reset' | 'invitation';

/** How long each kind of token works. */
export const TOKEN_LIFETIME_SECONDS: Readonly<Record<TokenKind, number>> = {
  sign_in: 15 * 60,
  password_reset: 60 * 60,
  invitation: 7 * 24 * 3600,
};

/** The stored hash of a secret token (the token itself is never stored). */
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Issues a token of `kind` carrying `data`; returns the token (put it in a link). */
export const issueToken = async (deps: Deps, kind: TokenKind, data: Record<string, string>): Promise<string> => {
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  const expires = Math.floor(now / 1000) + TOKEN_LIFETIME_SECONDS[kind];
  await putItem(
    deps,
    { ...keys.oneTime.item(tokenHash(token)), type: 'one_time_token', kind, data, expires_at: expires, ttl: expires },
    { exists: false },
  );
  return token;
};

/** What a token can be: anything else is no token of ours, and is not looked up. */
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{20,100}$/;

/**
 * The data of a token of `kind` that would still work (known, unused, unexpired), without using
 * it: for the page that shows or asks for more before the token is used. Undefined otherwise.
 */
export const unusedToken = async (
  deps: Deps,
  token: string,
  kind: TokenKind,
): Promise<Record<string, string> | undefined> => {
  if (!TOKEN_FORMAT.test(token)) return undefined;
  const stored = await getItem(deps, keys.oneTime.item(tokenHash(token)));
  const works =
    stored?.kind === kind &&
    stored.used_at === undefined &&
    Number(stored.expires_at) >= Math.floor(deps.clock.now() / 1000);
  return works ? (stored.data as Record<string, string>) : undefined;
};

/**
 * Uses a token once: the first call marks it used (a conditional write, so two concurrent uses
 * cannot both succeed) and returns its data; an unknown, used, expired or other-kind token gives undefined.
 */
export const consumeToken = async (
  deps: Deps,
  token: string,
  kind: TokenKind,
): Promise<Record<string, string> | undefined> => {
  if (!TOKEN_FORMAT.test(token)) return undefined;
  const nowSeconds = Math.floor(deps.clock.now() / 1000);
  const out = await updateItem(
    deps,
    keys.oneTime.item(tokenHash(token)),
    { set: { used_at: nowSeconds } },
    {
      and: [
        { exists: true },
        { attr: 'used_at', absent: true },
        { attr: 'kind', eq: kind },
        { attr: 'expires_at', ne: null },
      ],
    },
  );
  if (!out || Number(out.expires_at) < nowSeconds) return undefined;
  return out.data as Record<string, string>;
};
