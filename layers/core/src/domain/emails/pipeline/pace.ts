import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { Deps } from '../../../runtime/deps.ts';
import { keys } from '../../../table/keys.ts';

/**
 * Waits for a provider send slot: at most PROVIDER_RATE_PER_SECOND sends per second and region
 * across every worker, counted in one conditional write per send on that second's item.
 */
export const acquireSendSlot = async (deps: Deps, region: string, deadlineMs = 30_000): Promise<void> => {
  const rate = deps.config.PROVIDER_RATE_PER_SECOND;
  const giveUp = deps.clock.now() + deadlineMs;
  for (;;) {
    const now = deps.clock.now();
    const second = Math.floor(now / 1000);
    try {
      await deps.db.send(new UpdateCommand({
        TableName: deps.table,
        Key: keys.pacing.second(region, second),
        UpdateExpression: 'ADD #n :one SET #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(#n) OR #n < :rate',
        ExpressionAttributeNames: { '#n': 'sends', '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':one': 1, ':rate': rate, ':ttl': second + 120 },
      }));
      return;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      if (now > giveUp) throw new Error('no provider send slot within the deadline');
      // Wait for the next second, with a little jitter so workers do not stampede.
      await new Promise((r) => setTimeout(r, (second + 1) * 1000 - now + Math.random() * 20));
    }
  }
};
