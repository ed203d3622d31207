/** Calls counted at the adapters, for `npm run bench` (reads, writes, queue messages). */
export interface AdapterCounters {
  ddbReads: number;
  /** Items DynamoDB read to answer (a query's scanned items, a get's item), the cost of a read. */
  ddbItemsRead: number;
  ddbWrites: number;
  /** DynamoDB requests of any kind (a batch or a transaction is one). */
  ddbRequests: number;
  queueMessages: number;
  /** Queue send requests (a batch of up to ten messages is one). */
  queueRequests: number;
  providerSends: number;
  /** Content-store objects written and read, and their bytes (large bodies and attachments). */
  contentPuts: number;
  contentPutBytes: number;
  contentGets: number;
  contentGetBytes: number;
}

/** A fresh set of counters. */
export const newCounters = (): AdapterCounters => ({ ddbReads: 0, ddbItemsRead: 0, ddbWrites: 0, ddbRequests: 0, queueMessages: 0, queueRequests: 0, providerSends: 0, contentPuts: 0, contentPutBytes: 0, contentGets: 0, contentGetBytes: 0 });

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
  BatchGetItemCommand: (i) => Object.values(i.RequestItems ?? {}).reduce((n: number, r: any) => n + (r.Keys?.length ?? 0), 0),
};

/** Counts a DynamoDB command by name (document-client and low-level commands alike). */
export const countDbCommand = (counters: AdapterCounters, commandName: string, input: unknown): void => {
  counters.ddbRequests += 1;
  const w = WRITES[commandName];
  if (w) counters.ddbWrites += w(input);
  const r = READS[commandName];
  if (r) counters.ddbReads += r(input);
};

/** Counts the items a read returned or scanned. */
export const countDbItems = (counters: AdapterCounters, output: any): void => {
  if (!output) return;
  if (typeof output.ScannedCount === 'number') counters.ddbItemsRead += output.ScannedCount;
  else if (output.Item) counters.ddbItemsRead += 1;
  else if (output.Responses) counters.ddbItemsRead += Object.values(output.Responses as Record<string, unknown[]>).reduce((n, r) => n + (Array.isArray(r) ? r.length : 0), 0);
};
