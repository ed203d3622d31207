import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { addToCounters } from '../../table/ops.ts';
import { addSplit, shardsFor } from '../../table/bounded-counter.ts';
import { fixedWindow } from '../windows.ts';
import { rateLimited } from '../../errors/api-error.ts';

const MINUTE = 60_000;

/**
 * Counts one request against the key's and the team's fixed one-minute windows (spec §8).
 * Both counters live in one item per team, minute and shard (one shard under 30,000 requests a
 * minute), each shard holding its part of both limits, so a request costs one conditional write
 * while its shard has room, and neither limit is ever passed.
 */
export const countRequest = async (deps: Deps, teamId: string, keyId: string): Promise<void> => {
  const w = fixedWindow(deps.clock.now(), MINUTE);
  const keyAttr = `k_${keyId.replaceAll('-', '')}`;
  // A team allowed more than a partition takes spreads its window over shards (keys.rate.windowShardRequests).
  const shards = shardsFor(
    deps.config.TEAM_RATE_LIMIT_PER_MINUTE,
    keys.rate.windowShardRequests,
    keys.rate.windowMaxShards,
  );
  const counted = await addSplit(
    deps,
    (shard) => keys.rate.window(teamId, w.index, shard),
    shards,
    Math.floor(Math.random() * shards),
    {
      add: { [keyAttr]: 1, team_total: 1 },
      ceilings: {
        [keyAttr]: deps.config.API_RATE_LIMIT_PER_MINUTE,
        team_total: deps.config.TEAM_RATE_LIMIT_PER_MINUTE,
      },
      set: { type: 'rate_window' },
      expiresAt: w.expiresAt,
    },
  );
  if (!counted) {
    throw rateLimited(
      `Too many requests: this key may make ${deps.config.API_RATE_LIMIT_PER_MINUTE} and the team ${deps.config.TEAM_RATE_LIMIT_PER_MINUTE} requests per minute. Retry after the Retry-After header's seconds.`,
      w.retryAfterSeconds,
    );
  }
};

/**
 * Counts one call to the hosted MCP server against the signed-in person's one-minute window
 * (spec §8: MCP_RATE_LIMIT_PER_MINUTE, 600 by default), which no API key's window shares: a
 * call past it is 429 rate_limit_exceeded with Retry-After.
 */
export const countMcpCall = async (deps: Deps, userId: string): Promise<void> => {
  const w = fixedWindow(deps.clock.now(), MINUTE);
  const limit = deps.config.MCP_RATE_LIMIT_PER_MINUTE;
  const counted = await addToCounters(deps, keys.rate.mcpWindow(userId, w.index), {
    add: { calls: 1 },
    ceilings: { calls: limit },
    set: { type: 'mcp_rate_window' },
    expiresAt: w.expiresAt,
  });
  if (!counted) {
    throw rateLimited(
      `Too many MCP calls: a signed-in person may make ${limit} calls per minute to the MCP server. Retry after the Retry-After header's seconds.`,
      w.retryAfterSeconds,
    );
  }
};

/**
 * Where failed authentications are counted: the API keys' surface (HTTP API, SMTP relay, the
 * dashboard's sign-in), the mailbox keys' (agent API and mailbox MCP endpoints) and the hosted MCP
 * server's OAuth tokens, each with its own window per address.
 */
export type AuthSurface = 'api' | 'mailbox' | 'mcp';

/**
 * Records a failed authentication from `ip` and says whether the caller is now over the limit
 * (more than FAILED_AUTH_LIMIT_PER_MINUTE failures this minute on that surface). Successful
 * requests cost nothing.
 */
export const countFailedAuth = async (
  deps: Deps,
  ip: string,
  surface: AuthSurface = 'api',
): Promise<{ blocked: boolean; retryAfter: number }> => {
  const w = fixedWindow(deps.clock.now(), MINUTE);
  const out = await addToCounters(deps, keys.rate.authFailures(ip, w.index, surface), {
    add: { failures: 1 },
    expiresAt: w.expiresAt,
  });
  return {
    blocked: Number(out?.failures ?? 0) > deps.config.FAILED_AUTH_LIMIT_PER_MINUTE,
    retryAfter: w.retryAfterSeconds,
  };
};
