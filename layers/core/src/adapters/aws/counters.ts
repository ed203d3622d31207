/** Calls counted at the adapters, for `npm run bench` (reads, writes, queue messages). */
export interface AdapterCounters {
  ddbReads: number;
  ddbWrites: number;
  queueMessages: number;
  providerSends: number;
}

/** A fresh set of counters. */
export const newCounters = (): AdapterCounters => ({ ddbReads: 0, ddbWrites: 0, queueMessages: 0, providerSends: 0 });

const WRITES: Record<string, (input: any) => number> = {
  PutCommand: () => 1,
  UpdateCommand: () => 1,
  DeleteCommand: () => 1,
  TransactWriteCommand: (i) => i.TransactItems?.filter((t: any) => !t.ConditionCheck).length ?? 0,
  BatchWriteCommand: (i) => Object.values(i.RequestItems ?? {}).reduce((n: number, r: any) => n + r.length, 0),
};
const READS: Record<string, (input: any) => number> = {
  GetCommand: () => 1,
  QueryCommand: () => 1,
  ScanCommand: () => 1,
  TransactGetCommand: (i) => i.TransactItems?.length ?? 0,
  BatchGetCommand: (i) => Object.values(i.RequestItems ?? {}).reduce((n: number, r: any) => n + (r.Keys?.length ?? 0), 0),
};

/** Counts a DynamoDB document-client command by name. */
export const countDbCommand = (counters: AdapterCounters, commandName: string, input: unknown): void => {
  const w = WRITES[commandName];
  if (w) counters.ddbWrites += w(input);
  const r = READS[commandName];
  if (r) counters.ddbReads += r(input);
};
