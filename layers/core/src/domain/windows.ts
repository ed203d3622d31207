import { wholeRetryAfter } from '../errors/api-error.ts';

/**
 * A fixed time window (a minute, an hour) of the counters with ceilings: its index, how long
 * until it ends (for Retry-After: whole seconds, rounded up), and when its counter item may expire (one window after).
 */
export const fixedWindow = (now: number, sizeMs: number) => {
  const index = Math.floor(now / sizeMs);
  return {
    index,
    retryAfterSeconds: wholeRetryAfter(((index + 1) * sizeMs - now) / 1000),
    expiresAt: Math.ceil(((index + 2) * sizeMs) / 1000),
  };
};
