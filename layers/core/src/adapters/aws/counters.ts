import { AsyncLocalStorage } from 'node:async_hooks';
import { itemSize } from '../../table/item-size.ts';
import { readUnits, writeUnits } from '../../table/billing.ts';

/** How AWS bills reads and writes (table/billing.ts), for the cost model's figures. */
export { readUnits, writeUnits };

/**
 * Calls counted at the adapters and where the local host invokes handlers, for `npm run bench`
 * and `npm run cost` (reads, writes and their capacity units, queue requests, content-store
 * requests, Lambda-equivalent invocations and their duration). The capacity units here are
 * DynamoDB Local's; `npm run cost` takes DynamoDB's units as AWS bills them from the metered
 * table store instead (metered-table-store.ts).
 */
export interface AdapterCounters {
  ddbReads: number;
  /** Items DynamoDB read to answer (a query's scanned items, a get's item), the cost of a read. */
  ddbItemsRead: number;
  ddbWrites: number;
  /** Read request units consumed (as DynamoDB reports them; from item sizes where it does not). */
  ddbReadUnits: number;
  /** Write request units consumed, the table's and its indexes' (as DynamoDB reports them; from item sizes where it does not). */
  ddbWriteUnits: number;
  /** DynamoDB requests of any kind (a batch or a transaction is one). */
  ddbRequests: number;
  queueMessages: number;
  /** Queue send requests (a batch of up to ten messages is one, a request per started 64 KB of payload). */
  queueRequests: number;
  /** Queue receive requests that returned messages (empty polls are a fixed cost of each queue). */
  queueReceiveRequests: number;
  /** Queue delete requests (one DeleteMessageBatch per handled batch, as Lambda's event source mapping makes). */
  queueDeleteRequests: number;
  /** Notifications published to SNS (SES's event publishing to the provider-events queue). */
  snsNotifications: number;
  /** Messages the provider accepted. */
  providerSends: number;
  /** How late provider calls went out after their place's instant in the send line (ms; the last 10,000). */
  readonly sendLateMs: number[];
  /** The instant each email's provider call was planned for (by email id, the last 10,000): the bench holds the provider's arrivals against it. */
  readonly callPlannedAt: Map<string, number>;
  /** The instant each email's provider call was let go by the transport (by email id, the last 10,000): how late it left, against how late it arrived. */
  readonly callReleasedAt: Map<string, number>;
  /** When the provider's answer to each email's call came back (by email id, the last 10,000): what each call costs the send line. */
  readonly callAnsweredAt: Map<string, number>;
  /** While set (the bench sets it for a phase), when each DynamoDB request was sent and answered (epoch ms): the bench counts a request's sequential table round trips from them. */
  ddbSpans?: Array<readonly [number, number]>;
  /** While set (the bench sets it for a phase), table writes, reads and queue messages by the function that made them (see `countedAs`). */
  byFunction?: Map<string, FunctionCounts>;
  /** Provider calls that missed their planned instant (left too late) and were planned again. */
  callsMissed: number;
  /** Provider calls whose plan fell past the worker's wait, sending the job back to the queue. */
  callsDeferred: number;
  /** Broadcast sends turned away by the broadcast share of a second (each job back in a second). */
  broadcastTurnedAway: number;
  /** Content-store objects written and read, and their bytes (large bodies and attachments). */
  contentPuts: number;
  contentPutBytes: number;
  contentGets: number;
  contentGetBytes: number;
  /** Requests through the API gateway (each one Lambda invocation of an area function). */
  apiRequests: number;
  /** Lambda-equivalent invocations: API requests, worker batches, timer runs. */
  lambdaInvocations: number;
  /** Their billed duration, each rounded up to the millisecond as Lambda bills it. */
  lambdaBilledMs: number;
}

/** What one function spent while the bench attributes counts (`AdapterCounters.byFunction`). */
export interface FunctionCounts {
  ddbWrites: number;
  ddbReads: number;
  queueMessages: number;
}

/**
 * The function whose work is being counted: the local host runs each handler inside it (a
 * worker's name, a route's area), so the bench can say which function spent what.
 */
export const countedAs = new AsyncLocalStorage<string>();

/** Adds to the running function's counts, while the bench attributes them. */
export const countFor = (counters: AdapterCounters, add: Partial<FunctionCounts>): void => {
  const by = counters.byFunction;
  if (!by) return;
  const name = countedAs.getStore() ?? 'the stand-ins and the bench';
  const mine = by.get(name) ?? { ddbWrites: 0, ddbReads: 0, queueMessages: 0 };
  mine.ddbWrites += add.ddbWrites ?? 0;
  mine.ddbReads += add.ddbReads ?? 0;
  mine.queueMessages += add.queueMessages ?? 0;
  by.set(name, mine);
};

/** How many of the latest calls `sendLateMs`, `callPlannedAt`, `callReleasedAt` and `callAnsweredAt` keep. */
const RECENT_CALLS = 10_000;

/** Adds one call's figure to a list of the latest RECENT_CALLS. */
export const noteRecent = (list: number[], value: number): void => {
  if (list.push(value) > RECENT_CALLS) list.shift();
};

/** Notes one email's call figure in a map of the latest RECENT_CALLS. */
export const noteRecentCall = (map: Map<string, number>, emailId: string, value: number): void => {
  if (map.set(emailId, value).size > RECENT_CALLS) map.delete(map.keys().next().value!);
};

/** A fresh set of counters. */
export const newCounters = (): AdapterCounters => ({
  ddbReads: 0,
  ddbItemsRead: 0,
  ddbWrites: 0,
  ddbReadUnits: 0,
  ddbWriteUnits: 0,
  ddbRequests: 0,
  queueMessages: 0,
  queueRequests: 0,
  queueReceiveRequests: 0,
  queueDeleteRequests: 0,
  snsNotifications: 0,
  providerSends: 0,
  sendLateMs: [],
  callPlannedAt: new Map(),
  callReleasedAt: new Map(),
  callAnsweredAt: new Map(),
  callsMissed: 0,
  callsDeferred: 0,
  broadcastTurnedAway: 0,
  contentPuts: 0,
  contentPutBytes: 0,
  contentGets: 0,
  contentGetBytes: 0,
  apiRequests: 0,
  lambdaInvocations: 0,
  lambdaBilledMs: 0,
});

/** One invocation of `ms` milliseconds (billed rounded up to the millisecond, at least 1). */
export const countInvocation = (counters: AdapterCounters, ms: number): void => {
  counters.lambdaInvocations += 1;
  counters.lambdaBilledMs += Math.max(1, Math.ceil(ms));
};

/** SQS bills a request per started 64 KB of its payload. */
const SQS_CHUNK_BYTES = 64 * 1024;

/** Billed SQS requests for one call carrying `payloadBytes` (at least one). */
export const sqsRequests = (payloadBytes: number): number => Math.max(1, Math.ceil(payloadBytes / SQS_CHUNK_BYTES));

// Names as the client's middleware sees them (document-client commands run as these).
const WRITES: Record<string, (input: any) => number> = {
  PutItemCommand: () => 1,
  UpdateItemCommand: () => 1,
  DeleteItemCommand: () => 1,
  TransactWriteItemsCommand: (i) => i.TransactItems?.filter((t: any) => !t.ConditionCheck).length ?? 0,
  BatchWriteItemCommand: (i) => Object.values(i.RequestItems ?? {}).reduce((n: number, r: any) => n + r.length, 0),
};
const READS: Record<string, (input: any) => number> = {
  GetItemCommand: () => 1,
  QueryCommand: () => 1,
  ScanCommand: () => 1,
  TransactGetItemsCommand: (i) => i.TransactItems?.length ?? 0,
  BatchGetItemCommand: (i) =>
    Object.values(i.RequestItems ?? {}).reduce((n: number, r: any) => n + (r.Keys?.length ?? 0), 0),
};

/** Whether a command reads or writes the table (and so consumes capacity). */
export const isDbCommand = (commandName: string): boolean => commandName in WRITES || commandName in READS;

/** Counts a DynamoDB command by name (document-client and low-level commands alike). */
export const countDbCommand = (counters: AdapterCounters, commandName: string, input: unknown): void => {
  counters.ddbRequests += 1;
  const writes = WRITES[commandName]?.(input) ?? 0;
  const reads = READS[commandName]?.(input) ?? 0;
  counters.ddbWrites += writes;
  counters.ddbReads += reads;
  countFor(counters, { ddbWrites: writes, ddbReads: reads });
};

/** Counts the items a read returned or scanned. */
export const countDbItems = (counters: AdapterCounters, output: any): void => {
  if (!output) return;
  if (typeof output.ScannedCount === 'number') counters.ddbItemsRead += output.ScannedCount;
  else if (output.Item) counters.ddbItemsRead += 1;
  else if (output.Responses)
    counters.ddbItemsRead += Object.values(output.Responses as Record<string, unknown[]>).reduce(
      (n, r) => n + (Array.isArray(r) ? r.length : 0),
      0,
    );
};

/**
 * Counts the capacity a command consumed: what DynamoDB reported (`ReturnConsumedCapacity`,
 * indexes included), else from the sizes of the items it wrote or returned (a lower bound: an
 * update's or a delete's stored item, a query's filtered-out items, are not in the call).
 */
export const countDbCapacity = (counters: AdapterCounters, commandName: string, input: any, output: any): void => {
  const key = commandName in WRITES ? 'ddbWriteUnits' : commandName in READS ? 'ddbReadUnits' : undefined;
  if (!key) return;
  const reported = [output?.ConsumedCapacity ?? []]
    .flat()
    .reduce((n: number, c: any) => n + (c?.CapacityUnits ?? 0), 0);
  if (output?.ConsumedCapacity) {
    counters[key] += Math.max(reported, minimumUnits(commandName, input));
    return;
  }
  counters[key] += estimatedUnits(commandName, input, output);
};

/** A get, query or scan that finds nothing still consumes the units of one read. */
const minimumUnits = (commandName: string, input: any): number =>
  ['GetItemCommand', 'QueryCommand', 'ScanCommand'].includes(commandName)
    ? readUnits(0, { consistent: input?.ConsistentRead === true })
    : 0;

const estimatedUnits = (commandName: string, input: any, output: any): number => {
  switch (commandName) {
    case 'PutItemCommand':
      return writeUnits(itemSize(input.Item ?? {}));
    case 'UpdateItemCommand':
    case 'DeleteItemCommand':
      return writeUnits(itemSize({ ...input.Key, ...output?.Attributes }));
    case 'BatchWriteItemCommand':
      return Object.values(input.RequestItems ?? {})
        .flat()
        .reduce((n: number, r: any) => n + writeUnits(itemSize(r.PutRequest?.Item ?? r.DeleteRequest?.Key ?? {})), 0);
    case 'TransactWriteItemsCommand':
      return (input.TransactItems ?? []).reduce(
        (n: number, t: any) =>
          n + writeUnits(itemSize(t.Put?.Item ?? t.Update?.Key ?? t.Delete?.Key ?? t.ConditionCheck?.Key ?? {}), true),
        0,
      );
    case 'GetItemCommand':
      return readUnits(itemSize(output?.Item ?? {}), { consistent: input.ConsistentRead === true });
    case 'QueryCommand':
    case 'ScanCommand':
      return readUnits(
        (output?.Items ?? []).reduce((n: number, i: any) => n + itemSize(i), 0),
        { consistent: input.ConsistentRead === true },
      );
    case 'BatchGetItemCommand':
      return Object.values(output?.Responses ?? {})
        .flat()
        .reduce((n: number, i: any) => n + readUnits(itemSize(i)), 0);
    case 'TransactGetItemsCommand':
      return (output?.Responses ?? []).reduce(
        (n: number, r: any) => n + readUnits(itemSize(r?.Item ?? {}), { transactional: true }),
        0,
      );
    default:
      return 0;
  }
};
