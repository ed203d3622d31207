import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { updateItem } from '../../table/ops.ts';
import { hashKey, type ApiKey } from './api-key.ts';

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
