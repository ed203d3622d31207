import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { rateLimited } from '../../errors/api-error.ts';

const MINUTE = 60_000;

const windowOf = (now: number) => {
  const minute = Math.floor(now / MINUTE);
  return { minute, retryAfter: ((minute + 1) * MINUTE - now) / 1000, ttl: Math.ceil(((minute + 2) * MINUTE) / 1000) };
};

/**
 * Counts one request against the key's and the team's fixed one-minute windows (spec §8).
 * Both counters live in one item per team and minute, so a request costs one conditional write
 * and the two limits are checked atomically.
 */
export const countRequest = async (deps: Deps, teamId: string, keyId: string): Promise<void> => {
  const { minute, retryAfter, ttl } = windowOf(deps.clock.now());
  const keyAttr = `k_${keyId.replaceAll('-', '')}`;
  try {
    await deps.db.send(new UpdateCommand({
      TableName: deps.table,
      Key: keys.rate.window(teamId, minute),
      UpdateExpression: 'ADD #key :one, #team :one SET #ttl = :ttl, #type = :type',
      ConditionExpression: '(attribute_not_exists(#key) OR #key < :keyLimit) AND (attribute_not_exists(#team) OR #team < :teamLimit)',
      ExpressionAttributeNames: { '#key': keyAttr, '#team': 'team_total', '#ttl': 'ttl', '#type': 'type' },
      ExpressionAttributeValues: {
        ':one': 1,
        ':ttl': ttl,
        ':type': 'rate_window',
        ':keyLimit': deps.config.API_RATE_LIMIT_PER_MINUTE,
        ':teamLimit': deps.config.TEAM_RATE_LIMIT_PER_MINUTE,
      },
    }));
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    throw rateLimited(
      `Too many requests: this key may make ${deps.config.API_RATE_LIMIT_PER_MINUTE} and the team ${deps.config.TEAM_RATE_LIMIT_PER_MINUTE} requests per minute. Retry after the Retry-After header's seconds.`,
      retryAfter,
    );
  }
};

/**
 * Records a failed authentication from `ip` and says whether the caller is now over the limit
 * (more than FAILED_AUTH_LIMIT_PER_MINUTE failures this minute). Successful requests cost nothing.
 */
export const countFailedAuth = async (deps: Deps, ip: string): Promise<{ blocked: boolean; retryAfter: number }> => {
  const { minute, retryAfter, ttl } = windowOf(deps.clock.now());
  const out = await deps.db.send(new UpdateCommand({
    TableName: deps.table,
    Key: keys.rate.authFailures(ip, minute),
    UpdateExpression: 'ADD #n :one SET #ttl = :ttl',
    ExpressionAttributeNames: { '#n': 'failures', '#ttl': 'ttl' },
    ExpressionAttributeValues: { ':one': 1, ':ttl': ttl },
    ReturnValues: 'UPDATED_NEW',
  }));
  return { blocked: Number(out.Attributes?.failures ?? 0) > deps.config.FAILED_AUTH_LIMIT_PER_MINUTE, retryAfter };
};
