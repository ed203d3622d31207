import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, updateItemOrRead, type Key } from '../../table/ops.ts';
import { cachedItem, forgetItems, hasFreshCopy } from '../../table/item-cache.ts';
import { apiKeyFromItem, hashKey, type ApiKey } from './api-key.ts';

/** How often a key's "last used" is written (the key page shows it to the minute). */
const LAST_USED_EVERY_MS = 60_000;

/** A key found for a presented secret: the record to act on now, and the table's word on it. */
export interface FoundKey {
  /** The record, from this process's copy while it is fresh (team, permission and domain never change). */
  readonly key: ApiKey;
  /**
   * The key as the table holds it now (undefined once deleted), read beside the request's other
   * work, so a revocation made anywhere refuses the next request (spec §5 rule 2). Once a minute
   * this read is the write of the key's "last used", made only while the key is not revoked.
   */
  readonly current: Promise<ApiKey | undefined>;
}

const markedUsed = async (deps: Deps, at: Key, now: number): Promise<ApiKey | undefined> => {
  const out = await updateItemOrRead(
    deps,
    at,
    { set: { last_used_at: new Date(now).toISOString() } },
    { and: [{ exists: true }, { attr: 'revoked', ne: true }] },
  );
  return out.item ? apiKeyFromItem(out.item) : undefined;
};

/** The key at `at` as the table holds it now, marking its use when its "last used" is a minute old. */
const currentKey = (deps: Deps, at: Key, known: ApiKey, readNow: boolean): Promise<ApiKey | undefined> => {
  const now = deps.clock.now();
  if (!known.revoked && (!known.lastUsedAt || now - Date.parse(known.lastUsedAt) >= LAST_USED_EVERY_MS))
    return markedUsed(deps, at, now);
  if (!readNow) return Promise.resolve(known);
  return getItem(deps, at).then((item) => {
    // Revoked or deleted elsewhere: this process's copy goes too, so the next request reads the table.
    if (!item || item.revoked === true) forgetItems(deps.itemCache, [at]);
    return item ? apiKeyFromItem(item) : undefined;
  });
};

/**
 * Finds the key record for a presented secret. The record comes from this process's copy while
 * it is fresh (table/item-cache.ts), so its team is read at once; what the table holds now comes
 * beside it (`current`), in the same round trip as the request's count.
 */
export const findKeyBySecret = async (deps: Deps, secret: string): Promise<FoundKey | undefined> => {
  const at = keys.apiKey.item(hashKey(secret));
  const fromCopy = hasFreshCopy(deps, at);
  const item = await cachedItem(deps, at);
  if (!item) return undefined;
  const key = apiKeyFromItem(item);
  const current = currentKey(deps, at, key, fromCopy);
  // Settled by whoever awaits it; never an unhandled rejection in between.
  current.catch(() => undefined);
  return { key, current };
};
