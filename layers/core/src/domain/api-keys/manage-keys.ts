import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, putItem, queryAll, updateItem } from '../../table/ops.ts';
import { apiKeyFromItem, hashKey, newKeySecret, type ApiKey, type Permission } from './api-key.ts';

/** Mints a key for a team; the secret is returned once and only its hash is stored. */
export const createApiKey = async (
  deps: Deps,
  input: { teamId: string; name: string; permission: Permission; domainId?: string | null },
): Promise<{ key: ApiKey; secret: string }> => {
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
  if (!(await putItem(deps, item, { exists: false }))) throw new Error('a new key collided with an existing one; create it again');
  return { key: apiKeyFromItem(item), secret };
};

/** Finds the key record for a presented secret (strongly consistent, so revocation is immediate). */
export const findKeyBySecret = async (deps: Deps, secret: string): Promise<ApiKey | undefined> => {
  const item = await getItem(deps, keys.apiKey.item(hashKey(secret)));
  return item ? apiKeyFromItem(item) : undefined;
};

/** The keys of a team, revoked ones included. */
export const listApiKeys = async (deps: Deps, teamId: string): Promise<(ApiKey & { hash: string })[]> => {
  const items = await queryAll(deps, { index: 'gsi1', pk: keys.apiKey.listPartition(teamId) });
  return items.map((i) => ({ ...apiKeyFromItem(i), hash: i.hash as string }));
};

/** Records that a key was used, at most once a minute per key (the key page's "last used"). */
export const markKeyUsed = async (deps: Deps, key: ApiKey, secret: string): Promise<void> => {
  const now = deps.clock.now();
  if (key.lastUsedAt && now - Date.parse(key.lastUsedAt) < 60_000) return;
  await updateItem(deps, keys.apiKey.item(hashKey(secret)), { set: { last_used_at: new Date(now).toISOString() } }, { exists: true });
};

/** Revokes a key by id; the next request with it answers 401 invalid_api_key. */
export const revokeApiKey = async (deps: Deps, teamId: string, keyId: string): Promise<boolean> => {
  const found = (await listApiKeys(deps, teamId)).find((k) => k.id === keyId);
  if (!found) return false;
  await updateItem(deps, keys.apiKey.item(found.hash), { set: { revoked: true } });
  return true;
};
