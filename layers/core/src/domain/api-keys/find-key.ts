import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { cachedItem } from '../../table/item-cache.ts';
import { apiKeyFromItem, hashKey, type ApiKey } from './api-key.ts';

/**
 * Finds the key record for a presented secret, from this process's copy while it is fresh
 * (table/item-cache.ts): a key revoked elsewhere stops working within LOOKUP_STALENESS_MS, one
 * revoked by this process at once.
 */
export const findKeyBySecret = async (deps: Deps, secret: string): Promise<ApiKey | undefined> => {
  const item = await cachedItem(deps, keys.apiKey.item(hashKey(secret)));
  return item ? apiKeyFromItem(item) : undefined;
};
