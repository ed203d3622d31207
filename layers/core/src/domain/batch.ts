import { isApiError, type ApiError } from '../errors/api-error.ts';
import type { ErrorName } from '../errors/catalog.ts';
import type { BatchMode } from '../schemas/batch.ts';

/** An item's refusal in a permissive batch's `errors`. */
export interface ItemError {
  readonly index: number;
  readonly message: string;
}

/**
 * Refusals that concern the caller, not an item: a batch answers them once for the whole call
 * in either mode (spec §4: pause, suspension, quota and key scope are never per item).
 */
const CALL_LEVEL: ReadonlySet<ErrorName> = new Set<ErrorName>([
  'team_suspended',
  'sending_paused',
  'restricted_api_key',
  'rate_limit_exceeded',
  'daily_quota_exceeded',
  'monthly_quota_exceeded',
]);

/** Whether an error refuses the whole call rather than one item. */
const isCallLevel = (error: ApiError): boolean => CALL_LEVEL.has(error.name as ErrorName);

/**
 * The batch-validation rule of every batch endpoint: each item is checked, all at once (a check
 * runs synchronously up to its first read in item order, so checks that look at earlier items
 * see them), and the outcomes are read in item order: in strict mode the first invalid item
 * refuses the whole batch (its error, prefixed with its index), in permissive mode invalid items
 * are reported by index and the valid ones go on. A call-level refusal is thrown once, whatever
 * the mode.
 */
export const checkBatch = async <T>(
  items: readonly unknown[],
  mode: BatchMode,
  check: (item: unknown, index: number) => T | Promise<T>,
): Promise<{ valid: { index: number; value: T }[]; errors: ItemError[] }> => {
  const outcomes = await Promise.all(
    items.map(async (item, index) => {
      try {
        return { index, value: await check(item, index) };
      } catch (error) {
        return { index, error };
      }
    }),
  );
  const valid: { index: number; value: T }[] = [];
  const errors: ItemError[] = [];
  for (const outcome of outcomes) {
    if (!('error' in outcome)) {
      valid.push(outcome);
      continue;
    }
    const { error, index } = outcome;
    if (!isApiError(error)) throw error;
    if (mode === 'strict' || isCallLevel(error))
      throw Object.assign(error, { message: `Item ${index}: ${error.message}` }) as ApiError;
    errors.push({ index, message: error.message });
  }
  return { valid, errors };
};

/** How many items of a batch are worked on at once. */
const CONCURRENCY = 16;

/** Runs `fn` over items with bounded concurrency, keeping the order of results. */
export const mapPooled = async <T, R>(
  items: readonly T[],
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> => {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
};
