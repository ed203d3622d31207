import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TableStore } from '@mailstack/core/ports/table-store';
import type { Clock } from '@mailstack/core/ports/clock';
import type { Config } from '@mailstack/core/runtime/config';
import { countedAs, countInvocation, newCounters } from '@mailstack/core/adapters/aws/counters';
import { meterTable } from '../../../scripts/cost/table-meter.ts';

type Row = Record<string, any>;

/** A table in memory whose every call moves a virtual clock by `ms`. */
const memoryStore = (rows: Map<string, Row>, tick: (ms: number) => void, ms: number) => {
  const id = (k: Row) => `${k.pk}\u0000${k.sk}`;
  const unused = async () => {
    throw new Error('not asked of this store by these tests');
  };
  return {
    update: unused,
    delete: unused,
    query: unused,
    batchGet: unused,
    batchWrite: unused,
    get: async (input: Row) => {
      tick(ms);
      return { Item: rows.get(id(input.Key)) };
    },
    put: async (input: Row) => {
      tick(ms);
      rows.set(id(input.Item), input.Item);
      return {};
    },
    transactWrite: async (input: Row) => {
      tick(ms);
      for (const t of input.TransactItems) if (t.Put) rows.set(id(t.Put.Item), t.Put.Item);
      return {};
    },
  } as unknown as TableStore;
};

const setup = () => {
  let now = 0;
  vi.spyOn(performance, 'now').mockImplementation(() => now);
  const tick = (ms: number) => {
    now += ms;
  };
  const rows = new Map<string, Row>();
  const deps = {
    config: {} as Config,
    // The host's store answers in 10 ms, the meter's peek reads take 50.
    tableStore: memoryStore(rows, tick, 10),
    clock: { now: () => now } as unknown as Clock,
    counters: newCounters(),
  };
  const meter = meterTable(deps, memoryStore(rows, tick, 50));
  return { deps, meter };
};

/** An email row of about 1.5 KB (no index key: the table's units alone). */
const row = (n: number) => ({ pk: 'TEAM#t1#EMAIL', sk: `EMAIL#${n}`, text: 'x'.repeat(1500) });

let stop = () => {};
afterEach(() => {
  stop();
  vi.restoreAllMocks();
});

describe("npm run cost's table meter", () => {
  it('counts write units as AWS bills them: two per KB of each item in a transaction (DynamoDB Local reports one)', async () => {
    const { deps, meter } = setup();
    stop = meter.stop;
    await deps.tableStore.put({ TableName: 'mailstack', Item: row(1) });
    await deps.tableStore.transactWrite({
      TransactItems: [
        { Put: { TableName: 'mailstack', Item: row(2) } },
        { Put: { TableName: 'mailstack', Item: row(3) } },
      ],
    });
    expect(meter.billed().ddbWriteUnits).toBe(2 + 8);
    expect(Object.fromEntries(meter.writesByKind)).toEqual({
      'PutItem TEAM#EMAIL/EMAIL': 2,
      'TransactWriteItems TEAM#EMAIL/EMAIL + TEAM#EMAIL/EMAIL': 8,
    });
  });

  it("keeps the meter's peek reads out of a send job's time, requests and round trips, and out of its billed milliseconds", async () => {
    const { deps, meter } = setup();
    stop = meter.stop;
    const started = performance.now();
    await countedAs.run('send-email', async () => {
      // Each put: a 50 ms peek at the item as it stood, then the 10 ms write.
      await deps.tableStore.put({ TableName: 'mailstack', Item: row(1) });
      await deps.tableStore.put({ TableName: 'mailstack', Item: row(2) });
    });
    countInvocation(deps.counters, performance.now() - started);
    expect(meter.takeSendJob()).toEqual({ ms: 20, requests: 2, stages: 2 });
    expect(deps.counters.lambdaBilledMs).toBe(20);
  });
});
