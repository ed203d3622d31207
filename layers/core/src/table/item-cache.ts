import type { Deps } from '../runtime/deps.ts';
import { getItem, type Item, type Key } from './ops.ts';

/**
 * A process's short-lived copies of the rows every request reads (API keys, teams, sending
 * domains), so the accept path reads them once per staleness window instead of once per request
 * (an API key's row is still confirmed by each request, beside its count: domain/api-keys/find-key.ts).
 * Only found rows are kept (a row created elsewhere is seen at once); an entry lives `ttlMs`
 * (LOOKUP_CACHE_MS); any write of this process to a cached row drops it (table/ops.ts), so only
 * another process's change can be served stale, and for at most `ttlMs`. Concurrent misses for
 * one row share one read.
 */
export interface ItemCache {
  readonly ttlMs: number;
  readonly entries: Map<string, { readonly until: number; readonly item: Promise<Item | undefined> }>;
}

/** Rows kept at most; past it the oldest entry goes first. */
const MAX_ENTRIES = 10_000;

export const newItemCache = (ttlMs: number): ItemCache => ({ ttlMs, entries: new Map() });

const id = (key: Key) => `${key.pk}\u0000${key.sk}`;

/** The row at `key`, from the cache while its copy is fresh, else read (strongly consistent) and kept if found. */
export const cachedItem = (deps: Pick<Deps, 'clock' | 'itemCache'> & Deps, key: Key): Promise<Item | undefined> => {
  const cache = deps.itemCache;
  if (cache.ttlMs <= 0) return getItem(deps, key);
  const now = deps.clock.now();
  const k = id(key);
  const hit = cache.entries.get(k);
  if (hit && hit.until > now) return hit.item;
  const item = getItem(deps, key);
  cache.entries.delete(k);
  if (cache.entries.size >= MAX_ENTRIES) cache.entries.delete(cache.entries.keys().next().value!);
  cache.entries.set(k, { until: now + cache.ttlMs, item });
  // A row not found, or a failed read, is not kept.
  item.then(
    (found) => {
      if (!found && cache.entries.get(k)?.item === item) cache.entries.delete(k);
    },
    () => {
      if (cache.entries.get(k)?.item === item) cache.entries.delete(k);
    },
  );
  return item;
};

/** Whether `key`'s row would be served from this process's copy now (a read made, or begun, earlier). */
export const hasFreshCopy = (deps: Pick<Deps, 'clock' | 'itemCache'>, key: Key): boolean => {
  const cache = deps.itemCache;
  return cache.ttlMs > 0 && (cache.entries.get(id(key))?.until ?? 0) > deps.clock.now();
};

/** Drops the cached copies of rows this process is writing. */
export const forgetItems = (cache: ItemCache | undefined, keys: readonly (Key | Item | undefined)[]): void => {
  if (!cache || cache.entries.size === 0) return;
  for (const key of keys) if (key && typeof key.pk === 'string') cache.entries.delete(id(key as Key));
};
