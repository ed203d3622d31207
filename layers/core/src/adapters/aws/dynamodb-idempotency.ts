import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { IdempotencyStore } from '../../ports/idempotency.ts';
import { keys } from '../../table/keys.ts';
import { TABLE } from '../../table/definition.ts';

/**
 * The idempotency records in the service's table: a team's spread over its key shards, expired by the table's
 * TTL attribute. Powertools marshals its own items, so it takes the low-level client (not the
 * document client the table adapter uses).
 */
export const dynamoIdempotencyStore = (client: DynamoDBClient, tableName: string): IdempotencyStore => ({
  forTeam: (teamId, key) =>
    new DynamoDBPersistenceLayer({
      tableName,
      awsSdkV3Client: client,
      keyAttr: TABLE.partitionKey,
      sortKeyAttr: TABLE.sortKey,
      staticPkValue: keys.idempotency.partition(teamId, key),
      expiryAttr: TABLE.ttlAttribute,
    }),
});
