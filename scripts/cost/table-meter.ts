/**
 * The table as `npm run cost` sees it: every request billed as AWS bills it, and the send
 * worker's requests timed.
 *
 * DynamoDB Local's ConsumedCapacity is not AWS's bill: asked for it (ReturnConsumedCapacity
 * TOTAL), Local reported 2 units for a PutItem of a 1.5 KB item and 4 for a TransactWriteItems
 * putting two such items, one unit per KB in the transaction as outside it, where AWS bills two
 * per KB inside one (8). So the cost model counts DynamoDB units through the metered store
 * (adapters/aws/metered-table-store.ts, the rules in table/billing.ts), as the aws-scale bench
 * section does, not from the adapter counters.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createClients } from '@mailstack/core/adapters/aws/clients';
import { countedAs, newCounters } from '@mailstack/core/adapters/aws/counters';
import { dynamoTableStore } from '@mailstack/core/adapters/aws/dynamodb-table-store';
import { meteredTableStore, TableLoad } from '@mailstack/core/adapters/aws/metered-table-store';
import type { PartitionUnits } from '@mailstack/core/table/billing';
import type { Deps } from '@mailstack/core/runtime/deps';
import type { TableStore } from '@mailstack/core/ports/table-store';

type Span = readonly [number, number];
type Method = (input: unknown) => Promise<unknown>;
const METHODS = ['get', 'put', 'update', 'delete', 'transactWrite', 'query', 'batchGet', 'batchWrite'] as const;

/** The table requests and peek reads of one invocation (a handler run by the local host under `countedAs`). */
interface Invocation {
  readonly requests: Span[];
  readonly peeks: Span[];
}
const invocations = new AsyncLocalStorage<Invocation>();

/** `store` with each call timed into its invocation's `kind` spans, and the send worker's into `sends` too. */
const timed = (store: TableStore, kind: keyof Invocation, sends: Span[]): TableStore => {
  const out = { ...store };
  for (const name of METHODS) {
    const inner = (store[name] as Method).bind(store);
    (out as unknown as Record<string, Method>)[name] = async (input) => {
      const started = performance.now();
      try {
        return await inner(input);
      } finally {
        const span = [started, performance.now()] as const;
        invocations.getStore()?.[kind].push(span);
        if (countedAs.getStore() === 'send-email') sends.push(span);
      }
    };
  }
  return out;
};

const kindTags = (k: unknown) =>
  String(k ?? '')
    .split('#')
    .filter((p) => /^[A-Z_]+$/.test(p))
    .join('#');
/** An item's kind: its key's prefixes without ids. */
const kindOf = (key: any) => (key ? `${kindTags(key.pk)}/${kindTags(key.sk)}` : '?');

/** The label of a write request by command and item kinds, for the per-email breakdown. */
const labelOf = (name: (typeof METHODS)[number], input: any): string | undefined => {
  switch (name) {
    case 'put':
      return `PutItem ${kindOf(input.Item)}`;
    case 'update':
      return `UpdateItem ${kindOf(input.Key)}`;
    case 'delete':
      return `DeleteItem ${kindOf(input.Key)}`;
    case 'transactWrite':
      return `TransactWriteItems ${(input.TransactItems ?? [])
        .map((t: any) => kindOf(t.Put?.Item ?? t.Update?.Key ?? t.Delete?.Key ?? t.ConditionCheck?.Key))
        .join(' + ')}`;
    case 'batchWrite': {
      const first = Object.values(input.RequestItems ?? {}).flat()[0] as any;
      return `BatchWriteItem ${kindOf(first?.PutRequest?.Item ?? first?.DeleteRequest?.Key)}`;
    }
    default:
      return undefined;
  }
};

/** Milliseconds covered by `covered` and not by `by`, within [from, to]. */
const onlyIn = (covered: readonly Span[], by: readonly Span[], from: number, to: number): number => {
  const points = [...new Set([from, to, ...covered.flat(), ...by.flat()])]
    .filter((p) => p >= from && p <= to)
    .sort((a, b) => a - b);
  let ms = 0;
  for (let i = 1; i < points.length; i++) {
    const mid = (points[i - 1]! + points[i]!) / 2;
    const within = (spans: readonly Span[]) => spans.some(([s, e]) => s <= mid && mid < e);
    if (within(covered) && !within(by)) ms += points[i]! - points[i - 1]!;
  }
  return ms;
};

/**
 * Installs on the host's dependencies (shared by its handlers) a table store that bills every
 * request as AWS does and times the send worker's. Layers, outside in: the breakdown by command
 * and item kind, the metered store (its peek reads through a client of its own, counted nowhere
 * else), the timing, the host's store. Only the host's store's calls are timed: the peek reads
 * stay out of a send job's requests and round trips, and their time is taken out of its time and
 * out of each invocation's billed milliseconds.
 */
export const meterTable = (
  deps: Pick<Deps, 'config' | 'tableStore' | 'clock' | 'counters'>,
  peekStore: TableStore = dynamoTableStore(createClients(deps.config, newCounters()).db),
) => {
  const requestSpans: Span[] = [];
  const peekSpans: Span[] = [];
  const writesByKind = new Map<string, number>();
  const labels = new AsyncLocalStorage<string>();
  const load = new (class extends TableLoad {
    override record(units: readonly PartitionUnits[], now: number): void {
      super.record(units, now);
      const label = labels.getStore();
      const write = units.reduce((n, u) => n + u.write, 0);
      if (label && write > 0) writesByKind.set(label, (writesByKind.get(label) ?? 0) + write);
    }
  })();
  const peek = timed(peekStore, 'peeks', peekSpans);
  const metered = meteredTableStore(timed(deps.tableStore, 'requests', requestSpans), peek, load, deps.clock);
  const labelled = { ...metered };
  for (const name of METHODS) {
    const inner = metered[name] as Method;
    (labelled as unknown as Record<string, Method>)[name] = (input) => {
      const label = labelOf(name, input);
      return label ? labels.run(label, () => inner(input)) : inner(input);
    };
  }
  Object.assign(deps, { tableStore: labelled });
  // Each handler the host runs (under countedAs, then counted as a Lambda invocation) is billed its
  // milliseconds less the time only the peek reads took in it.
  const original = countedAs.run;
  const run = original.bind(countedAs);
  const ownRun = <R>(store: string, fn: (...args: any[]) => R, ...args: any[]): R =>
    run(store, () => {
      const invocation: Invocation = { requests: [], peeks: [] };
      const result = invocations.run(invocation, fn, ...args);
      const settle = () => {
        const all = [...invocation.requests, ...invocation.peeks];
        if (invocation.peeks.length === 0) return;
        const from = Math.min(...all.map((s) => s[0]));
        const to = Math.max(...all.map((s) => s[1]));
        deps.counters.lambdaBilledMs -= Math.floor(onlyIn(invocation.peeks, invocation.requests, from, to));
      };
      if (result instanceof Promise) return result.finally(settle) as R;
      settle();
      return result;
    });
  countedAs.run = ownRun as typeof countedAs.run;
  return {
    /** Puts back `countedAs.run` (the table store stays as installed). */
    stop: () => {
      countedAs.run = original;
    },
    /** Write units by command and item kind since the last `clear`. */
    writesByKind,
    /** The read and write units billed since the start, table and indexes. */
    billed: () => {
      let ddbReadUnits = 0;
      let ddbWriteUnits = 0;
      for (const p of load.partitions.values()) {
        ddbReadUnits += p.read;
        ddbWriteUnits += p.write;
      }
      return { ddbReadUnits, ddbWriteUnits };
    },
    /**
     * The send job since the last call: its time (its first table request to its last, less the
     * time only the metered store's peek reads took), requests, and round trips in sequence.
     */
    takeSendJob: (): { ms: number; requests: number; stages: number } | undefined => {
      const spans = requestSpans.splice(0).sort((a, b) => a[0] - b[0]);
      const peeks = peekSpans.splice(0);
      if (spans.length === 0) return undefined;
      let stages = 0;
      let stageEnd = Number.NEGATIVE_INFINITY;
      let last = Number.NEGATIVE_INFINITY;
      for (const [start, end] of spans) {
        if (start >= stageEnd) stages += 1;
        stageEnd = start >= stageEnd ? end : Math.max(stageEnd, end);
        last = Math.max(last, end);
      }
      const first = spans[0]![0];
      return { ms: last - first - onlyIn(peeks, spans, first, last), requests: spans.length, stages };
    },
  };
};
