import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, transact, updateItem } from '../../table/ops.ts';
import { ApiError, validationError } from '../../errors/api-error.ts';

/** A person who signs in to the dashboard. */
export interface User {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly createdAt: string;
  /** How many teams the person belongs to (the teams-per-user cap counts this). */
  readonly teamCount: number;
}

/** scrypt cost (N = 2^15, r = 8, p = 1: OWASP's minimum for scrypt), 64-byte keys, 16-byte salts. */
const SCRYPT = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const KEY_LENGTH = 64;
export const MIN_PASSWORD_LENGTH = 10;
const MAX_PASSWORD_LENGTH = 200;

const scrypt = (password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    scryptCb(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

/** The stored form of a password: `scrypt$N$r$p$salt$hash` (base64url). */
const hashPassword = async (password: string): Promise<string> => {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
};

/** Compares a password with its stored form in constant time. */
export const verifyPassword = async (password: string, stored: string): Promise<boolean> => {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scrypt(password, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
};

/** A stored form no password matches, compared against when the address is unknown (same timing). */
let decoy: Promise<string> | undefined;
export const decoyHash = (): Promise<string> => (decoy ??= hashPassword(randomBytes(16).toString('hex')));

/** Refuses a password the service will not store. */
export const checkPassword = (password: string): void => {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    throw validationError(
      `\`password\` must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters long; it has ${password.length}.`,
    );
  }
};

const EMAIL = /^[^\s@<>()",;]+@[^\s@<>()",;]+\.[^\s@<>()",;]+$/;

/** A lower-cased, trimmed address, or a validation error naming the field. */
export const normalizeEmail = (email: string, field = 'email'): string => {
  const e = email.trim().toLowerCase();
  if (!EMAIL.test(e) || e.length > 254)
    throw validationError(
      `\`${field}\` must be an email address such as jane@example.com; got "${email.slice(0, 80)}".`,
    );
  return e;
};

export const userFromItem = (i: Record<string, any>): User => ({
  id: i.id,
  email: i.email,
  name: i.name ?? '',
  createdAt: i.created_at,
  teamCount: Number(i.team_count ?? 0),
});

/** Creates a person; 409 conflict when the address already has an account. */
export const createUser = async (
  deps: Deps,
  input: { email: string; name?: string; password?: string | undefined },
): Promise<User> => {
  const email = normalizeEmail(input.email);
  if (input.password !== undefined) checkPassword(input.password);
  const id = deps.ids.next();
  const item = {
    ...keys.user.item(id),
    type: 'user',
    id,
    email,
    name: (input.name ?? '').trim().slice(0, 100),
    team_count: 0,
    password: input.password === undefined ? null : await hashPassword(input.password),
    created_at: new Date(deps.clock.now()).toISOString(),
  };
  const out = await transact(deps, [
    { put: { ...keys.user.emailGuard(email), type: 'user_email', user_id: id }, when: { exists: false } },
    { put: item, when: { exists: false } },
  ]);
  if (!out.ok)
    throw new ApiError('conflict', `An account for ${email} already exists; sign in, or ask for a sign-in link.`);
  return userFromItem(item);
};

/** The stored user item (with the password hash) by address. */
export const findUserItemByEmail = async (deps: Deps, email: string): Promise<Record<string, any> | undefined> => {
  const guard = await getItem(deps, keys.user.emailGuard(email.trim().toLowerCase()));
  return guard ? getItem(deps, keys.user.item(guard.user_id)) : undefined;
};

export const findUserByEmail = async (deps: Deps, email: string): Promise<User | undefined> => {
  const item = await findUserItemByEmail(deps, email);
  return item ? userFromItem(item) : undefined;
};

export const getUser = async (deps: Deps, userId: string): Promise<User | undefined> => {
  const item = await getItem(deps, keys.user.item(userId));
  return item ? userFromItem(item) : undefined;
};

/** Sets a new password. */
export const setPassword = async (deps: Deps, userId: string, password: string): Promise<void> => {
  checkPassword(password);
  await updateItem(deps, keys.user.item(userId), { set: { password: await hashPassword(password) } }, { exists: true });
};
