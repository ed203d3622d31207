import type { Deps } from '../runtime/deps.ts';
import { type Lane, laneAt } from './line-shards.ts';

/**
 * The send line's rate in a region: the provider account's maximum send rate (SES GetAccount's
 * `SendQuota.MaxSendRate`, read by the send workers at start and every
 * PROVIDER_ACCOUNT_REFRESH_SECONDS) when this process has read one, capped by
 * PROVIDER_RATE_PER_SECOND (`mailstack:providerRatePerSecond`, the ceiling); the ceiling until
 * then. A line and a call log are kept per rate (keys.pacing), so a changed rate starts its own.
 */
const accountRates = new Map<string, number>();
const rateKey = (deps: Deps, region: string) => `${deps.table}|${region}`;

export const lineRate = (deps: Deps, region: string): number => {
  const ceiling = deps.config.PROVIDER_RATE_PER_SECOND;
  const account = accountRates.get(rateKey(deps, region));
  return account !== undefined && account < ceiling ? account : ceiling;
};

/** Notes the account's maximum send rate in the region (whole recipients a second, at least 1). */
export const noteAccountRate = (deps: Deps, region: string, maxSendRate: number | undefined): void => {
  if (maxSendRate === undefined || !Number.isFinite(maxSendRate) || maxSendRate <= 0) return;
  accountRates.set(rateKey(deps, region), Math.max(1, Math.floor(maxSendRate)));
};

/**
 * The most two send workers' clocks may differ by (PROVIDER_CLOCK_SKEW_MS): each reported answer
 * is widened by it. The line's margin and a call's unanswered bound already allow for
 * DEFAULT_CLOCK_SKEW_MS; a larger setting widens them by the excess (`skewExcessMs`).
 */
export const clockSkewMs = (deps: Deps): number => deps.config.PROVIDER_CLOCK_SKEW_MS ?? DEFAULT_CLOCK_SKEW_MS;
const DEFAULT_CLOCK_SKEW_MS = 1;
export const skewExcessMs = (deps: Deps): number => Math.max(0, clockSkewMs(deps) - DEFAULT_CLOCK_SKEW_MS);

/** Shard `shard` of the region's line at its rate now (table/line-shards.ts), widened by the clocks' skew. */
export const lineLane = (deps: Deps, region: string, shard = 0): Lane =>
  laneAt(region, lineRate(deps, region), shard, skewExcessMs(deps));
