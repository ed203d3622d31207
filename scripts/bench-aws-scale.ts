/**
 * `BENCH_ONLY=aws-scale npm run bench`: what the pipeline asks of AWS per email, measured on the
 * local host (its own, in cloud mode, the provider rate at 1,000/s), and what that means at AWS's
 * limits.
 *
 * 1. The hot-key map. Emails accepted through the API, sent, their provider events and one webhook
 *    delivery each; then a broadcast's recipients; then automation runs (an event and a send_email
 *    step). Every table request goes through a metered store (adapters/aws/metered-table-store.ts)
 *    that bills it as AWS does (table/billing.ts) to the partitions it touched. For each partition
 *    key pattern: its keys, the units per email, the units per email of its busiest key, and the
 *    send rate at which that key would pass DynamoDB's 1,000 write or 3,000 read units a second
 *    (HOT below 2,000/s); then SQS calls and EventBridge Scheduler calls per email against their
 *    quotas.
 * 2. The throttling simulation. The same pipeline with every request through a throttling store
 *    (adapters/aws/throttled-table-store.ts) that refuses a partition past its units in the
 *    second, retried beneath the code as the SDK retries it. This machine cannot send 1,000 a
 *    second, so the emails go at a steady pace P it can hold and every partition gets P/1,000 of
 *    its limits: each key sees, per second, the units it would see at 1,000 sends a second on AWS.
 *    Printed: the requests refused, as a ratio of all, by pattern.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setDeps, type Deps } from '@mailstack/core/runtime/deps';
import { createClients } from '@mailstack/core/adapters/aws/clients';
import { newCounters } from '@mailstack/core/adapters/aws/counters';
import { dynamoTableStore } from '@mailstack/core/adapters/aws/dynamodb-table-store';
import { meteredTableStore, TableLoad } from '@mailstack/core/adapters/aws/metered-table-store';
import {
  PARTITION_LIMITS,
  sdkRetryingTableStore,
  throttledTableStore,
} from '@mailstack/core/adapters/aws/throttled-table-store';
import { QUEUE_DELAY_UNDER_MS } from '@mailstack/core/adapters/aws/queue-delay-scheduler';
import { keyPattern } from '@mailstack/core/table/key-pattern';
import { createWebhook } from '@mailstack/core/domain/webhooks/create-webhook';
import type { TableStore } from '@mailstack/core/ports/table-store';
import { startLocalHost } from '../lib/local/host.ts';
import { segmentOfListeners, sendingTeam } from './bench-team.ts';

const EMAILS = Number(process.env.BENCH_AWS_EMAILS ?? 60);
const RECIPIENTS = Number(process.env.BENCH_AWS_RECIPIENTS ?? 60);
const RUNS = Number(process.env.BENCH_AWS_RUNS ?? 30);
/** Seconds of the throttling simulation's steady pace. */
const SIM_SECONDS = Number(process.env.BENCH_AWS_SIM_SECONDS ?? 12);
/** The send rate the map is read against and the simulation stands for. */
const TARGET = 1_000;
/** No partition on the path of an email may hold less than this. */
const GOAL = 2_000;
/** EventBridge Scheduler's default quotas in its main regions: CreateSchedule and DeleteSchedule requests a second (https://docs.aws.amazon.com/scheduler/latest/UserGuide/scheduler-quotas.html; 250 in the other regions). */
const SCHEDULER_TPS = 1_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A webhook endpoint answering 200, counting what it received. */
const receiver = async () => {
  let count = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count += 1;
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get count() {
      return count;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
};

/** Waits for `done`, then until the table has been quiet for a second (the last jobs of the flow), at most `withinMs`. */
const settle = async (load: TableLoad, done: () => boolean, withinMs = 180_000) => {
  const deadline = Date.now() + withinMs;
  const requests = () => [...load.partitions.values()].reduce((n, p) => n + p.requests, 0);
  while (!done() && Date.now() < deadline) await sleep(100);
  let last = -1;
  while (requests() !== last && Date.now() < deadline) {
    last = requests();
    await sleep(1_000);
  }
};

/** Calls made to the queues and the scheduler, as AWS would see them. */
const awsCalls = (deps: Deps, scheduler: { create: number; delete: number }) => ({
  send: deps.counters.queueRequests,
  receive: deps.counters.queueReceiveRequests,
  delete: deps.counters.queueDeleteRequests,
  create: scheduler.create,
  cancel: scheduler.delete,
  localWrite: deps.counters.ddbWriteUnits,
  localRead: deps.counters.ddbReadUnits,
});

/** Prints one flow's hot-key map. */
const printMap = (
  title: string,
  unit: string,
  n: number,
  load: TableLoad,
  calls: { before: ReturnType<typeof awsCalls>; after: ReturnType<typeof awsCalls> },
) => {
  const patterns = new Map<
    string,
    { keys: number; read: number; write: number; hotRead: number; hotWrite: number; by: Set<string> }
  >();
  for (const [partition, p] of load.partitions) {
    const pattern = keyPattern(partition);
    const row = patterns.get(pattern) ?? { keys: 0, read: 0, write: 0, hotRead: 0, hotWrite: 0, by: new Set<string>() };
    row.keys += 1;
    row.read += p.read;
    row.write += p.write;
    // The busiest key: the one whose load would first pass a limit as the rate grows.
    if (
      p.write / PARTITION_LIMITS.writeUnitsPerSecond + p.read / PARTITION_LIMITS.readUnitsPerSecond >
      row.hotWrite / PARTITION_LIMITS.writeUnitsPerSecond + row.hotRead / PARTITION_LIMITS.readUnitsPerSecond
    ) {
      row.hotWrite = p.write;
      row.hotRead = p.read;
    }
    for (const b of p.by) row.by.add(b);
    patterns.set(pattern, row);
  }
  // A key of a time bucket (a second, a minute, a day) takes every email of its bucket: the pattern's
  // units are its own, or, for a bucket spread over shards, its busiest shard's over every bucket.
  // A key of one email (as many keys as emails) never concentrates.
  const timedValue = /^<(second|minute|hour|day|month)>$/;
  const timed = (pattern: string) => pattern.split('#').some((segment) => timedValue.test(segment));
  const buckets = new Map<string, { pattern: string; read: number; write: number }>();
  for (const [partition, p] of load.partitions) {
    const pattern = keyPattern(partition).split('#');
    if (!pattern.some((segment) => timedValue.test(segment))) continue;
    const bucket = partition
      .split('#')
      .map((segment, i) => (timedValue.test(pattern[i] ?? '') ? '*' : segment))
      .join('#');
    const b = buckets.get(bucket) ?? { pattern: pattern.join('#'), read: 0, write: 0 };
    b.read += p.read;
    b.write += p.write;
    buckets.set(bucket, b);
  }
  for (const [pattern, row] of patterns)
    if (timed(pattern)) {
      row.hotWrite = 0;
      row.hotRead = 0;
    }
  for (const b of buckets.values()) {
    const row = patterns.get(b.pattern)!;
    if (
      b.write / PARTITION_LIMITS.writeUnitsPerSecond + b.read / PARTITION_LIMITS.readUnitsPerSecond >
      row.hotWrite / PARTITION_LIMITS.writeUnitsPerSecond + row.hotRead / PARTITION_LIMITS.readUnitsPerSecond
    ) {
      row.hotWrite = b.write;
      row.hotRead = b.read;
    }
  }
  const perUnit = (pattern: string, r: { keys: number }) => !timed(pattern) && r.keys >= n / 2;
  const holds = (r: { hotRead: number; hotWrite: number }) =>
    Math.min(
      r.hotWrite > 0 ? (PARTITION_LIMITS.writeUnitsPerSecond * n) / r.hotWrite : Number.POSITIVE_INFINITY,
      r.hotRead > 0 ? (PARTITION_LIMITS.readUnitsPerSecond * n) / r.hotRead : Number.POSITIVE_INFINITY,
    );
  const rows = [...patterns].sort(([pa, a], [pb, b]) =>
    perUnit(pa, a) === perUnit(pb, b) ? holds(a) - holds(b) : perUnit(pa, a) ? 1 : -1,
  );
  const total = rows.reduce((t, [, r]) => ({ read: t.read + r.read, write: t.write + r.write }), { read: 0, write: 0 });
  console.log(
    `\n${title}: ${n} ${unit}s; units as AWS bills them, per ${unit} (${(total.write / n).toFixed(2)} write, ${(total.read / n).toFixed(2)} read in all); a key holds the send rate at which it passes 1,000 WCU/s or 3,000 RCU/s (a key of a second, minute or day takes its pattern's units; HOT: under ${GOAL.toLocaleString('en')}/s)`,
  );
  console.log(
    `  ${'partition key pattern'.padEnd(46)} ${'keys'.padStart(5)} ${'WCU'.padStart(7)} ${'RCU'.padStart(7)}  ${'busiest key WCU'.padStart(15)} ${'RCU'.padStart(6)}  ${'holds /s'.padStart(9)}  written/read by`,
  );
  for (const [pattern, r] of rows) {
    const h = perUnit(pattern, r) ? Number.POSITIVE_INFINITY : holds(r);
    console.log(
      `  ${pattern.padEnd(46)} ${String(r.keys).padStart(5)} ${(r.write / n).toFixed(2).padStart(7)} ${(r.read / n).toFixed(2).padStart(7)}  ${(r.hotWrite / n).toFixed(3).padStart(15)} ${(r.hotRead / n).toFixed(3).padStart(6)}  ${(Number.isFinite(h) ? Math.round(h).toLocaleString('en') : perUnit(pattern, r) ? `per ${unit}` : 'any').padStart(9)}${h < GOAL ? ' HOT' : '    '}  ${[...r.by].sort().join(', ')}`,
    );
  }
  const per = (k: keyof ReturnType<typeof awsCalls>) => (calls.after[k] - calls.before[k]) / n;
  console.log(
    `  (DynamoDB Local reported ${per('localWrite').toFixed(2)} write and ${per('localRead').toFixed(2)} read units per ${unit} for the same requests)`,
  );
  console.log(
    `  SQS per ${unit}: ${per('send').toFixed(2)} send, ${per('receive').toFixed(2)} receive, ${per('delete').toFixed(2)} delete requests (standard queues: no quota on calls a second, https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/quotas-messages.html; about 120,000 in flight a queue)`,
  );
  const scheduled = Math.max(per('create'), per('cancel'));
  const schedulerHolds = scheduled > 0 ? SCHEDULER_TPS / scheduled : Number.POSITIVE_INFINITY;
  console.log(
    `  EventBridge Scheduler per ${unit}: ${per('create').toFixed(2)} CreateSchedule, ${per('cancel').toFixed(2)} DeleteSchedule (quota ${SCHEDULER_TPS.toLocaleString('en')}/s each): holds ${Number.isFinite(schedulerHolds) ? `${Math.round(schedulerHolds).toLocaleString('en')}/s` : 'any rate'}${schedulerHolds < GOAL ? ' HOT' : ''}`,
  );
};

/** The host's dependencies with the table store and the scheduler given, made the process's (the handlers read them per call). */
const install = (base: Deps, tableStore: TableStore, scheduler: { create: number; delete: number }): Deps => {
  const deps: Deps = {
    ...base,
    tableStore,
    scheduler: {
      schedule: (r) => {
        if (r.at - base.clock.now() >= QUEUE_DELAY_UNDER_MS) scheduler.create += 1;
        else scheduler.delete += 1;
        return base.scheduler.schedule(r);
      },
      cancel: (name) => {
        scheduler.delete += 1;
        return base.scheduler.cancel(name);
      },
    },
  };
  setDeps(deps);
  return deps;
};

const sendOne = async (resend: Awaited<ReturnType<typeof sendingTeam>>['resend'], n: number) => {
  const out = await resend.emails.send({
    from: 'Bench <bench@scale.example.com>',
    to: `reader${n}@example.com`,
    subject: `Your order #${n} has shipped`,
    text: 'Hello from the benchmark.',
    tags: [{ name: 'category', value: 'shipping' }],
  });
  if (out.error) throw new Error(`send failed: ${out.error.message}`);
};

/** Runs the section on a host of its own. */
export const benchAwsScale = async (): Promise<void> => {
  const began = performance.now();
  const host = await startLocalHost({
    port: 0,
    smtpPort: 0,
    inboundPort: 0,
    dashboardPort: 0,
    memory: true,
    cloud: true,
    timers: false,
    env: {
      PROVIDER_RATE_PER_SECOND: String(TARGET),
      API_RATE_LIMIT_PER_MINUTE: '1000000',
      TEAM_RATE_LIMIT_PER_MINUTE: '1000000',
      // A job failed after the SDK's retries comes back soon (as the test host has it), and its log line stays out of the figures.
      QUEUE_VISIBILITY_SECONDS: '2',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'SILENT',
    },
  });
  const rx = await receiver();
  try {
    const base = host.deps;
    const peek = dynamoTableStore(createClients(base.config, newCounters()).db);
    const load = new TableLoad();
    const scheduler = { create: 0, delete: 0 };
    const deps = install(base, meteredTableStore(base.tableStore, peek, load, base.clock), scheduler);
    const { team, secret, resend } = await sendingTeam(host, {
      name: 'Scale',
      domain: 'scale.example.com',
      plan: 'scale',
    });
    await createWebhook(deps, team.id, { endpoint: `${rx.url}/hook`, events: ['email.delivered'] });
    console.log(
      `\nAWS scale (local host, cloud mode, provider rate ${TARGET}/s; DynamoDB's limits per partition: ${PARTITION_LIMITS.writeUnitsPerSecond} WCU/s, ${PARTITION_LIMITS.readUnitsPerSecond} RCU/s)`,
    );

    // 1. Emails: accept, send, provider events, one webhook delivery each.
    load.reset();
    let calls0 = awsCalls(deps, scheduler);
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < EMAILS) await sendOne(resend, next++);
      }),
    );
    await settle(load, () => rx.count >= EMAILS);
    const emailSeconds = (performance.now() - t0) / 1000;
    printMap('hot-key map, emails (accept, send, provider events, one webhook delivery)', 'email', EMAILS, load, {
      before: calls0,
      after: awsCalls(deps, scheduler),
    });

    // 2. A broadcast's recipients (contacts made before, not counted).
    const segment = await segmentOfListeners(host, { secret, resend }, 'Scale', RECIPIENTS);
    const broadcast = await resend.broadcasts.create({
      segmentId: segment,
      from: 'Scale <news@scale.example.com>',
      subject: 'Hello {{{FIRST_NAME|there}}}',
      text: 'Hi {{{FIRST_NAME}}}. {{{UNSUBSCRIBE_URL}}}',
    });
    if (broadcast.error) throw new Error(`broadcast failed: ${broadcast.error.message}`);
    await settle(load, () => true);
    load.reset();
    calls0 = awsCalls(deps, scheduler);
    const delivered0 = rx.count;
    await resend.broadcasts.send(broadcast.data!.id);
    await settle(load, () => rx.count - delivered0 >= RECIPIENTS);
    printMap(
      'hot-key map, a broadcast (fan-out, send, provider events, one webhook delivery)',
      'recipient',
      RECIPIENTS,
      load,
      {
        before: calls0,
        after: awsCalls(deps, scheduler),
      },
    );

    // 3. Automation runs: an event, a send_email step.
    const template = (
      await resend.templates.create({
        name: 'Scale welcome',
        from: 'Scale <hi@scale.example.com>',
        subject: 'Welcome',
        html: '<p>Hi</p>',
      } as never)
    ).data!.id;
    await resend.automations.create({
      name: 'Scale welcome',
      status: 'enabled',
      steps: [
        { key: 'start', type: 'trigger', config: { eventName: 'scale.signed_up' } },
        { key: 'welcome', type: 'send_email', config: { template: { id: template } } },
      ],
      connections: [{ from: 'start', to: 'welcome' }],
    } as never);
    await settle(load, () => true);
    load.reset();
    calls0 = awsCalls(deps, scheduler);
    const delivered1 = rx.count;
    for (let i = 0; i < RUNS; i++) {
      const { error } = await resend.events.send({ event: 'scale.signed_up', email: `listener${i}@example.com` });
      if (error) throw new Error(`events.send: ${error.message}`);
    }
    await settle(load, () => rx.count - delivered1 >= RUNS);
    printMap('hot-key map, automation runs (an event, a send_email step, its email)', 'run', RUNS, load, {
      before: calls0,
      after: awsCalls(deps, scheduler),
    });

    // 4. The throttling simulation at a pace this machine holds, each partition given pace/1,000 of its limits.
    const pace = Math.max(5, Math.floor((0.6 * EMAILS) / emailSeconds));
    const scale = pace / TARGET;
    const throttled = throttledTableStore(
      meteredTableStore(base.tableStore, peek, load, base.clock),
      load,
      base.clock,
      {
        writeUnitsPerSecond: PARTITION_LIMITS.writeUnitsPerSecond * scale,
        readUnitsPerSecond: PARTITION_LIMITS.readUnitsPerSecond * scale,
      },
    );
    install(base, sdkRetryingTableStore(throttled), scheduler);
    const delivered2 = rx.count;
    let failed = 0;
    const sent: Promise<void>[] = [];
    const started = performance.now();
    for (let tick = 0; tick < SIM_SECONDS * 10; tick++) {
      const due = Math.round((pace * (tick + 1)) / 10) - Math.round((pace * tick) / 10);
      for (let k = 0; k < due; k++)
        sent.push(
          sendOne(resend, 100_000 + sent.length).catch(() => {
            failed += 1;
          }),
        );
      await sleep(Math.max(0, started + (tick + 1) * 100 - performance.now()));
    }
    await Promise.all(sent);
    await settle(load, () => rx.count - delivered2 >= sent.length - failed, 30_000);
    const s = throttled.stats;
    console.log(
      `\nthrottling simulation: ${sent.length} emails at ${pace}/s for ${SIM_SECONDS} s (this machine's steady pace), each partition held to ${(PARTITION_LIMITS.writeUnitsPerSecond * scale).toFixed(0)} WCU/s and ${(PARTITION_LIMITS.readUnitsPerSecond * scale).toFixed(0)} RCU/s (${pace}/${TARGET} of its limits: the load of ${TARGET} sends/s on AWS)`,
    );
    console.log(
      `  refused: ${s.refused} of ${s.requests} table requests (${((s.refused / Math.max(1, s.requests)) * 100).toFixed(2)}%), each retried as the SDK retries; ${failed} emails refused by the API; ${rx.count - delivered2} webhook deliveries of ${sent.length}`,
    );
    for (const [pattern, p] of [...s.byPattern]
      .filter(([, p]) => p.refused > 0)
      .sort(([, a], [, b]) => b.refused - a.refused))
      console.log(
        `    ${pattern.padEnd(46)} ${p.refused} of ${p.requests} refused (${((p.refused / p.requests) * 100).toFixed(1)}%)`,
      );
    console.log(`  (the section took ${((performance.now() - began) / 1000).toFixed(0)} s)`);
  } finally {
    await rx.close();
    await host.stop();
  }
};
