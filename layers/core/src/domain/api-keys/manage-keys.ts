import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryAll, transact, updateItem } from '../../table/ops.ts';
import { cachedItem } from '../../table/item-cache.ts';
import { notFound, validationError } from '../../errors/api-error.ts';
import { MAX_KEY_NAME_LENGTH } from '../../limits.ts';
import { authorize } from '../people/roles.ts';
import type { Actor } from '../people/memberships.ts';
import { loadDomain } from '../domains/domain.ts';
import {
  apiKeyFromItem,
  hashKey,
  isPermission,
  newKeySecret,
  PERMISSIONS,
  type ApiKey,
  type Permission,
} from './api-key.ts';
import { auditWrite, byPerson, type KeyActor } from './key-audit.ts';

/**
 * Mints a key for a team; the secret is returned once and only its hash is stored. Every caller
 * (the dashboard, the admin CLI, `npm start`) comes through here: a domain-scoped key names one of
 * the team's domains (404 otherwise), and the key is written together with its line in the team's
 * audit list, naming `by`.
 */
export const createApiKey = async (
  deps: Deps,
  input: { teamId: string; name: string; permission: Permission; domainId?: string | null },
  by: KeyActor,
): Promise<{ key: ApiKey; secret: string }> => {
  if (input.domainId) await loadDomain(deps, input.teamId, input.domainId);
  const secret = newKeySecret();
  const hash = hashKey(secret);
  const id = deps.ids.next();
  const item = {
    ...keys.apiKey.item(hash),
    ...keys.apiKey.listing(input.teamId, id),
    type: 'api_key',
    id,
    hash,
    team_id: input.teamId,
    name: input.name,
    permission: input.permission,
    domain_id: input.domainId ?? null,
    revoked: false,
    created_at: new Date(deps.clock.now()).toISOString(),
  };
  const key = apiKeyFromItem(item);
  const subject = `${key.name} (${key.id}, ${key.permission}${key.domainId ? `, domain ${key.domainId}` : ''})`;
  const out = await transact(deps, [
    { put: item, when: { exists: false } },
    auditWrite(deps, input.teamId, by, 'api_key.created', subject),
  ]);
  if (!out.ok) throw new Error('a new key collided with an existing one; create it again');
  return { key, secret };
};

/**
 * Finds the key record for a presented secret, from this process's copy while it is fresh
 * (table/item-cache.ts): a key revoked elsewhere stops working within LOOKUP_STALENESS_MS, one
 * revoked by this process at once.
 */
export const findKeyBySecret = async (deps: Deps, secret: string): Promise<ApiKey | undefined> => {
  const item = await cachedItem(deps, keys.apiKey.item(hashKey(secret)));
  return item ? apiKeyFromItem(item) : undefined;
};

/** The keys of a team, revoked ones included. */
export const listApiKeys = async (deps: Deps, teamId: string): Promise<(ApiKey & { hash: string })[]> => {
  const items = await queryAll(deps, { ...keys.apiKey.listPartition(teamId) });
  return items.map((i) => ({ ...apiKeyFromItem(i), hash: i.hash as string }));
};

/** Records that a key was used, at most once a minute per key (the key page's "last used"). */
export const markKeyUsed = async (deps: Deps, key: ApiKey, secret: string): Promise<void> => {
  const now = deps.clock.now();
  if (key.lastUsedAt && now - Date.parse(key.lastUsedAt) < 60_000) return;
  await updateItem(
    deps,
    keys.apiKey.item(hashKey(secret)),
    { set: { last_used_at: new Date(now).toISOString() } },
    { exists: true },
  );
};

/**
 * Revokes a key by id (false when the team has no such key); the next request with it answers 401
 * invalid_api_key. The revocation is written together with its line in the audit list, naming
 * `by`; revoking a key already revoked changes nothing and adds no line.
 */
export const revokeApiKey = async (deps: Deps, teamId: string, keyId: string, by: KeyActor): Promise<boolean> => {
  const found = (await listApiKeys(deps, teamId)).find((k) => k.id === keyId);
  if (!found) return false;
  await transact(deps, [
    { update: keys.apiKey.item(found.hash), change: { set: { revoked: true } }, when: { attr: 'revoked', eq: false } },
    auditWrite(deps, teamId, by, 'api_key.revoked', `${found.name} (${found.id})`),
  ]);
  return true;
};

/** Mints a key for the actor's team (spec §5 rule 2: only a person in the dashboard does; keys:write). */
export const mintApiKey = async (
  deps: Deps,
  actor: Actor,
  input: { name: string; permission: string; domainId?: string | null },
): Promise<{ key: ApiKey; secret: string }> => {
  authorize(actor.role, 'keys:write');
  if (!isPermission(input.permission))
    throw validationError(
      `permission: ${JSON.stringify(input.permission)} is not a key permission; use one of ${Object.keys(PERMISSIONS).join(', ')}.`,
    );
  return createApiKey(
    deps,
    {
      teamId: actor.team.id,
      name: input.name.trim().slice(0, MAX_KEY_NAME_LENGTH) || 'API key',
      permission: input.permission,
      domainId: input.domainId ?? null,
    },
    byPerson(actor.user),
  );
};

/** Revokes a key of the actor's team (keys:write); 404 when the team has no such key. */
export const revokeApiKeyAs = async (deps: Deps, actor: Actor, keyId: string): Promise<void> => {
  authorize(actor.role, 'keys:write');
  if (!(await revokeApiKey(deps, actor.team.id, keyId, byPerson(actor.user)))) throw notFound('API key');
};
