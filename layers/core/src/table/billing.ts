import { TABLE } from './definition.ts';
import { itemSize } from './item-size.ts';

/**
 * Capacity units as DynamoDB bills them on AWS (on-demand request units and provisioned capacity
 * units count alike), per partition touched, from the items a request wrote or read. DynamoDB
 * Local reports its own figures (an item written in a transaction at one unit per KB, where AWS
 * bills two); these are AWS's rules:
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html and
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html.
 *
 * - A write: one unit per started KB of the larger of the item before and after (a delete: the
 *   item deleted), at least one; written inside TransactWriteItems, two per KB. Each global
 *   secondary index holding the item (before or after) is written too, in its own partition, at
 *   the standard rate (the indexes project every attribute).
 * - A read of one item: one unit per started 4 KB strongly consistent, half that eventually
 *   consistent, two transactional; BatchGetItem rounds each item apart.
 * - A query: the sizes of every item it evaluated (before a filter, whatever the projection)
 *   summed, then rounded up to 4 KB; an empty answer still costs one read.
 */

/** Write units of writing an item of `bytes`: one per started 1 KB (at least one), doubled in a transaction. */
export const writeUnits = (bytes: number, transactional = false): number =>
  Math.max(1, Math.ceil(bytes / 1024)) * (transactional ? 2 : 1);

/**
 * Read units of reading `bytes` (an item, or a query's items together): one per started 4 KB
 * strongly consistent (at least one), half that eventually consistent, doubled in a transaction.
 */
export const readUnits = (bytes: number, options: { consistent?: boolean; transactional?: boolean } = {}): number => {
  const units = Math.max(1, Math.ceil(bytes / 4096));
  if (options.transactional) return units * 2;
  return options.consistent ? units : units / 2;
};

/** A partition of the table (`pk`) or of an index (`gsi1:gsi1pk`), and the units a request took in it. */
export interface PartitionUnits {
  readonly partition: string;
  readonly read: number;
  readonly write: number;
}

type Image = Readonly<Record<string, unknown>> | undefined;

/** One item a write touched: its partition key, and the item as stored before and after (undefined: none). */
export interface ItemWrite {
  readonly pk: string;
  readonly before: Image;
  readonly after: Image;
}

/** The name of an index partition in the figures: `<index>:<its partition key>`. */
export const indexPartition = (index: string, pk: string): string => `${index}:${pk}`;

const sizeOf = (image: Image): number => (image ? itemSize(image as Record<string, unknown>) : 0);

/** The units of one item written (table and indexes), standard or inside a transaction. */
const billWrite = (w: ItemWrite, transactional: boolean): PartitionUnits[] => {
  const out: PartitionUnits[] = [
    { partition: w.pk, read: 0, write: writeUnits(Math.max(sizeOf(w.before), sizeOf(w.after)), transactional) },
  ];
  for (const index of TABLE.indexes) {
    const was = w.before?.[index.partitionKey];
    const is = w.after?.[index.partitionKey];
    if (typeof was === 'string' && was === is)
      out.push({
        partition: indexPartition(index.name, was),
        read: 0,
        write: writeUnits(Math.max(sizeOf(w.before), sizeOf(w.after))),
      });
    else {
      if (typeof was === 'string')
        out.push({ partition: indexPartition(index.name, was), read: 0, write: writeUnits(sizeOf(w.before)) });
      if (typeof is === 'string')
        out.push({ partition: indexPartition(index.name, is), read: 0, write: writeUnits(sizeOf(w.after)) });
    }
  }
  return out;
};

/** The units of items written by PutItem, UpdateItem, DeleteItem, BatchWriteItem (standard) or TransactWriteItems. */
export const billWrites = (writes: readonly ItemWrite[], options: { transactional?: boolean } = {}): PartitionUnits[] =>
  writes.flatMap((w) => billWrite(w, options.transactional === true));

/** The units of a condition check in a transaction: a transactional read of the item. */
export const billConditionCheck = (pk: string, item: Image): PartitionUnits => ({
  partition: pk,
  read: readUnits(sizeOf(item), { transactional: true }),
  write: 0,
});

/** The units of reading one item by key (GetItem, or one key of BatchGetItem); `item` undefined when there was none. */
export const billGet = (pk: string, item: Image, consistent: boolean): PartitionUnits => ({
  partition: pk,
  read: readUnits(sizeOf(item), { consistent }),
  write: 0,
});

/** The units of one query page: the items it evaluated, summed before rounding. */
export const billQuery = (partition: string, evaluated: readonly Image[], consistent: boolean): PartitionUnits => ({
  partition,
  read: readUnits(
    evaluated.reduce((n, i) => n + sizeOf(i), 0),
    { consistent },
  ),
  write: 0,
});
