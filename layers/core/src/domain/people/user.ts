import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem } from '../../table/ops.ts';
import { validationError } from '../../errors/api-error.ts';

/** A person who signs in to the dashboard. */
export interface User {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly createdAt: string;
  /** How many teams the person belongs to (the teams-per-user cap counts this). */
  readonly teamCount: number;
}

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
