/**
 * The one table's physical definition: key attributes, global secondary indexes and the TTL
 * attribute. The CDK table construct and the local engine bootstrap both read it, so they can
 * never drift.
 */
export const TABLE = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'ttl',
  indexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  ],
} as const;

/** A GSI name of the table. */
export type IndexName = (typeof TABLE.indexes)[number]['name'];
