import type { BasePersistenceLayer } from '@aws-lambda-powertools/idempotency/persistence';

/**
 * Where each team's idempotency records live (spec §4 conventions: a key is kept 24 hours), as
 * Powertools' idempotency utility reads and writes them. DynamoDB on AWS and locally; a use case
 * reaches the records only through this, never through a database client.
 */
export interface IdempotencyStore {
  /**
   * The store of one team's records of one key: the team's own partitions (the key picks one of
   * its shards), so another team's key never matches.
   */
  forTeam(teamId: string, key: string): BasePersistenceLayer;
}
