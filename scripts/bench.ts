/**
 * `npm run bench`: accept throughput and latency, adapter calls per accepted email, the accept
 * path with request logging on and off, the provider send rate against the configured rate, the
 * pacing alone (send slots under a backlog),
 * contacts, the sweeper's reads per run against stored mail that is not due, webhook
 * delivery (throughput to one endpoint and to 100, record-to-receipt latency), large email (content
 * store objects and bytes, accept latency and cost per 15 MB email), and a broadcast
 * (the planner at 100,000 contacts, a real run paced against the stand-in, transactional latency
 * beside it, and 100,000 contacts through the send line under a simulated clock), and mailboxes
 * (inbound mail stored through the local MX, the agent API's draft saves and sends), the email
 * metrics (the counters' writes per delivered event, GET /emails/metrics' reads), the inboxes'
 * thread lists, and automations (events accepted per second, step latency and operations per
 * step), measured in one run on the local host. `BENCH_ONLY` (section names, comma-separated) runs only those.
 * A benchmark, not a test: it prints figures and ratios and asserts nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import nodemailer from 'nodemailer';
import { startLocalHost } from '../lib/local/host.ts';
import { getEmail } from '@mailstack/core/domain/emails/get-email';
import { acceptEmails } from '@mailstack/core/domain/emails/accept-emails';
import { callerOfKey } from '@mailstack/core/domain/caller';
import { sweepStuckEmails } from '@mailstack/core/domain/emails/pipeline/sweep-stuck-emails';
import { releaseParkedEmails } from '@mailstack/core/domain/quotas/release-parked-emails';
import { answeredProviderCall, awaitProviderWindow } from '@mailstack/core/table/send-slots';
import { placeInstant, takeSendSlot, WINDOW_MARGIN_MS } from '@mailstack/core/table/send-line';
import { WAIT_IN_WORKER_MS } from '@mailstack/core/domain/emails/pipeline/deliver-email';
import { busiestSecond, type RateWindow } from '../lib/local/stand-ins/ses.ts';
import { broadcastRate, planBroadcast } from '@mailstack/core/domain/broadcasts/plan';
import { benchWebhooks } from './bench-webhooks.ts';
import { benchLargeEmails } from './bench-large.ts';
import { benchBroadcastSimulated } from './bench-broadcast-sim.ts';
import { benchMailboxes } from './bench-mailboxes.ts';
import { benchMetrics } from './bench-metrics.ts';
import { benchRequestLogs } from './bench-logs.ts';
import { benchInboxes } from './bench-inboxes.ts';
import { benchAutomations } from './bench-automations.ts';
import { warmEngine } from './bench-warmup.ts';
import type { FunctionCounts } from '@mailstack/core/adapters/aws/counters';
import { sendingTeam } from './bench-team.ts';
import { benchAwsScale } from './bench-aws-scale.ts';

const SINGLE = Number(process.env.BENCH_SINGLE ?? 200);
/** Sends before the measured ones, on the cold process (printed apart, as a Lambda's first requests). */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 100);
/** Emails accepted and held before the measured runs, to bring DynamoDB Local's JVM to steady state (bench-warmup.ts). */
const ENGINE_WARMUP = Number(process.env.BENCH_ENGINE_WARMUP ?? 2_000);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 5);
const CONCURRENCY = 16;
const RATE = 14;
const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 10_000);
const SMTP_MESSAGES = Number(process.env.BENCH_SMTP ?? 200);
const SCHEDULED = Number(process.env.BENCH_SCHEDULED ?? 10_000);
const PACED = Number(process.env.BENCH_PACED ?? 30 * RATE);
const PACING_SENDERS = 20;
/** Batches of 100 drained with the stand-in holding the rate over sliding seconds. */
const SLIDING_BATCHES = Number(process.env.BENCH_SLIDING_BATCHES ?? 4);
/** Contacts of the broadcast run (its send pace is the bench's provider rate: 70% of 14/s). */
const BROADCAST = Number(process.env.BENCH_BROADCAST ?? 1_000);
const PLANNED = 100_000;
/** The sections after the first (POST /emails, the reference of the ratios, always runs). */
const SECTIONS = [
  'logs',
  'sending',
  'pacing',
  'contacts',
  'sweeper',
  'webhooks',
  'large',
  'broadcast',
  'mailboxes',
  'metrics',
  'inboxes',
  'automations',
  'aws-scale',
] as const;
/** `BENCH_ONLY=contacts,sweeper` runs only those sections (and the first); unset runs them all. */
const ONLY = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
for (const name of ONLY) {
  if (!(SECTIONS as readonly string[]).includes(name))
    throw new Error(`BENCH_ONLY names sections from ${SECTIONS.join(', ')}; got \`${name}\``);
}
const runs = (section: (typeof SECTIONS)[number]) => ONLY.length === 0 || ONLY.includes(section);
// The AWS-scale section runs on a host of its own (bench-aws-scale.ts); alone, it skips the first section too.
if (ONLY.length === 1 && ONLY[0] === 'aws-scale') {
  await benchAwsScale();
  process.exit(0);
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const snapshot = <T extends object>(c: T): T => ({ ...c });

type Cpu = { readonly node: number; readonly engines: number };

/** Where a phase's CPU went, per unit, and how much CPU per unit a goal of `goalPerSecond` leaves on this host. */
const cpuLine = (unit: string, n: number, from: Cpu, to: Cpu, seconds: number, goalPerSecond: number) => {
  const cores = availableParallelism();
  const busy = (to.node - from.node + to.engines - from.engines) / (seconds * 1000 * cores);
  return `  CPU per ${unit}: ${((to.node - from.node) / n).toFixed(2)} ms in this process (API, workers, queue engine, stand-ins), ${((to.engines - from.engines) / n).toFixed(2)} ms in DynamoDB Local; the ${cores} cores were ${(busy * 100).toFixed(0)}% busy (the goal, ${goalPerSecond}/s, leaves ${((1000 / goalPerSecond) * cores).toFixed(2)} ms of CPU per ${unit} on this host)`;
};

/**
 * CPU milliseconds used so far by this process (the API, the workers, the embedded queue engine,
 * the stand-ins) and by the engines it started as processes of their own (DynamoDB Local), read
 * from /proc (Linux; zeros elsewhere): where the time of a phase goes on this host.
 */
const cpuMs = (): Cpu => {
  const usage = process.cpuUsage();
  let engines = 0;
  try {
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command name: state, ppid, ..., utime and stime (14th and 15th), in ticks of 10 ms.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === process.pid) engines += (Number(fields[11]) + Number(fields[12])) * 10;
    }
  } catch {
    /* no /proc here, or a process that ended while read */
  }
  return { node: (usage.user + usage.system) / 1000, engines };
};

const host = await startLocalHost({
  port: 0,
  smtpPort: 0,
  inboundPort: 0,
  dashboardPort: 0,
  memory: true,
  workers: false,
  env: {
    PROVIDER_RATE_PER_SECOND: String(RATE),
    API_RATE_LIMIT_PER_MINUTE: '1000000',
    TEAM_RATE_LIMIT_PER_MINUTE: '1000000',
  },
});
try {
  const deps = host.deps;
  const { team, key, secret, domain, resend } = await sendingTeam(host, { name: 'Bench', domain: 'bench.example.com' });
  const email = (n: number) => ({
    from: 'Bench <bench@bench.example.com>',
    to: `reader${n}@example.com`,
    subject: `Bench ${n}`,
    text: 'Hello from the benchmark.',
  });
  const ids: string[] = [];

  // 1. Single sends through POST /emails: first WARMUP sends on the cold process (code loaded and
  // compiled, caches filled, connections opened, as a Lambda's first requests), then SINGLE measured.
  const w0 = performance.now();
  let warm = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (warm < WARMUP) {
        const out = await resend.emails.send(email(90_000 + warm++));
        if (out.error) throw new Error(`send failed: ${out.error.message}`);
        ids.push(out.data!.id);
      }
    }),
  );
  const warmSeconds = (performance.now() - w0) / 1000;
  // One request at a time (the workers are not running yet): the table round trips each waits
  // for before its answer, in stages (requests sent together, then those sent after they answered).
  const stages: number[] = [];
  deps.counters.ddbSpans = [];
  for (let i = 0; i < 20; i++) {
    const from = Date.now();
    const out = await resend.emails.send(email(80_000 + i));
    if (out.error) throw new Error(`send failed: ${out.error.message}`);
    ids.push(out.data!.id);
    const to = Date.now();
    const spans = deps.counters.ddbSpans
      .splice(0)
      .filter(([a, b]) => a >= from && b <= to)
      .sort((x, y) => x[0] - y[0]);
    let count = 0;
    let end = Number.NEGATIVE_INFINITY;
    for (const [a, b] of spans) {
      if (a >= end) count++;
      end = a >= end ? b : Math.max(end, b);
    }
    stages.push(count);
  }
  deps.counters.ddbSpans = undefined;
  stages.sort((a, b) => a - b);
  const engineSeconds = ENGINE_WARMUP > 0 ? await warmEngine(host, ENGINE_WARMUP, CONCURRENCY) : 0;
  const before = snapshot(deps.counters);
  const latencies: number[] = [];
  let next = 0;
  const cpu0 = cpuMs();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < SINGLE) {
        const n = next++;
        const start = performance.now();
        const out = await resend.emails.send(email(n));
        latencies.push(performance.now() - start);
        if (out.error) throw new Error(`send failed: ${out.error.message}`);
        ids.push(out.data!.id);
      }
    }),
  );
  const singleSeconds = (performance.now() - t0) / 1000;
  const cpu1 = cpuMs();
  const after = snapshot(deps.counters);
  latencies.sort((a, b) => a - b);
  const per = (a: number, b: number, n: number) => ((a - b) / n).toFixed(2);
  console.log('mailstack benchmark (local host, in memory)');
  if (WARMUP > 0)
    console.log(
      `POST /emails        first ${WARMUP} on the cold process, ${CONCURRENCY} concurrent: ${(WARMUP / warmSeconds).toFixed(1)} accepted/s (not counted below)`,
    );
  if (ENGINE_WARMUP > 0)
    console.log(
      `engine warm-up      then ${ENGINE_WARMUP} emails accepted and held through POST /emails, ${CONCURRENCY} concurrent: ${(ENGINE_WARMUP / engineSeconds).toFixed(1)}/s (its JIT compiler at work; not counted below, BENCH_ENGINE_WARMUP=0 skips it)`,
    );
  console.log(
    `POST /emails        ${SINGLE} emails, ${CONCURRENCY} concurrent: ${(SINGLE / singleSeconds).toFixed(1)} accepted/s; latency p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms`,
  );
  console.log(
    `  per accepted email: ${per(after.ddbWrites, before.ddbWrites, SINGLE)} DynamoDB writes, ${per(after.ddbReads, before.ddbReads, SINGLE)} reads, ${per(after.queueMessages, before.queueMessages, SINGLE)} queue messages`,
  );
  console.log(cpuLine('accepted email', SINGLE, cpu0, cpu1, singleSeconds, 140));
  console.log(
    `  sequential table round trips before the answer (${stages.length} emails, one at a time): median ${stages[Math.floor(stages.length / 2)]}, max ${stages.at(-1)} (goal <= 2)`,
  );

  if (runs('logs')) {
    // 1b. The accept path with request logging on and off (the workers not yet running, as in 1).
    await benchRequestLogs(
      host,
      async (n) => {
        const out = await resend.emails.send(email(40_000 + n));
        if (out.error) throw new Error(`send failed: ${out.error.message}`);
        ids.push(out.data!.id);
      },
      CONCURRENCY,
    );
  }

  if (runs('sending')) {
    // 2. Batches of 100 through POST /emails/batch.
    const batchCpu0 = cpuMs();
    const t1 = performance.now();
    for (let b = 0; b < BATCHES; b++) {
      const out = await resend.batch.send(Array.from({ length: 100 }, (_, i) => email(10_000 + b * 100 + i)));
      if (out.error) throw new Error(`batch failed: ${out.error.message}`);
      ids.push(...out.data!.data.map((d) => d.id));
    }
    const batchSeconds = (performance.now() - t1) / 1000;
    const batchCpu1 = cpuMs();
    const afterBatch = snapshot(deps.counters);

    // 2b. The SMTP relay: the same emails as messages, over one pooled session and over ten.
    const relayRun = async (connections: number) => {
      const transport = nodemailer.createTransport({
        host: '127.0.0.1',
        port: host.smtp.port,
        secure: false,
        requireTLS: true,
        tls: { ca: [host.smtp.certificate] },
        auth: { user: 'resend', pass: secret },
        pool: true,
        maxConnections: connections,
        maxMessages: Infinity,
      });
      let sent = 0;
      const start = performance.now();
      await Promise.all(
        Array.from({ length: connections }, async () => {
          while (sent < SMTP_MESSAGES) {
            const n = sent++;
            const info = await transport.sendMail(email(20_000 + connections * 1000 + n));
            ids.push(info.response.split(' ').at(-1)!);
          }
        }),
      );
      const seconds = (performance.now() - start) / 1000;
      transport.close();
      return SMTP_MESSAGES / seconds;
    };
    const relayOne = await relayRun(1);
    const relayTen = await relayRun(10);

    // 3. The provider rate: workers drain everything against the stand-in's enforced rate, held per
    // calendar second; then more batches drained with the stand-in holding every sliding second.
    const drain = async (window: RateWindow, produce: () => Promise<number>) => {
      host.provider.window = window;
      const from = {
        accepted: host.provider.accepted,
        throttled: host.provider.throttled,
        admitted: host.provider.admittedAt.length,
        late: deps.counters.sendLateMs.length,
        missed: deps.counters.callsMissed,
        deferred: deps.counters.callsDeferred,
      };
      const t2 = performance.now();
      host.startWorkers();
      const expected = await produce();
      const deadline = Date.now() + 5 * 60_000;
      while (host.provider.accepted - from.accepted < expected && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      const seconds = (performance.now() - t2) / 1000;
      const times = host.provider.admittedAt.slice(from.admitted);
      const steady = (times.length - 1) / ((times.at(-1)! - times[0]!) / 1000);
      // The second half alone: past the start, where a backlog's booking competes with the sends for this host's cores.
      const half = times.slice(Math.floor(times.length / 2));
      const secondHalf = (half.length - 1) / ((half.at(-1)! - half[0]!) / 1000);
      const late = deps.counters.sendLateMs.slice(from.late).sort((a, b) => a - b);
      // How far from its planned instant each call reached the provider (arrival at the stand-in's gate).
      const arrival = [...deps.counters.callPlannedAt]
        .filter(([id, at]) => at >= t2 + performance.timeOrigin && host.provider.arrivedAt.has(id))
        .map(([id, at]) => host.provider.arrivedAt.get(id)! - at)
        .sort((a, b) => a - b);
      // Of that: how late the transport let the call go, and how long it then took to arrive.
      const releases = [...deps.counters.callReleasedAt].filter(
        ([id]) =>
          deps.counters.callPlannedAt.get(id)! >= t2 + performance.timeOrigin && host.provider.arrivedAt.has(id),
      );
      const leftLate = releases.map(([id, at]) => at - deps.counters.callPlannedAt.get(id)!).sort((a, b) => a - b);
      const transit = releases.map(([id, at]) => host.provider.arrivedAt.get(id)! - at).sort((a, b) => a - b);
      // How long after its planned instant each call's answer came back: what it costs the line (the calls a second later wait for it).
      const answered = [...deps.counters.callAnsweredAt]
        .filter(([id]) => (deps.counters.callPlannedAt.get(id) ?? 0) >= t2 + performance.timeOrigin)
        .map(([id, at]) => at - deps.counters.callPlannedAt.get(id)!)
        .sort((a, b) => a - b);
      return {
        sends: host.provider.accepted - from.accepted,
        seconds,
        steady,
        secondHalf,
        throttled: host.provider.throttled - from.throttled,
        calendar: busiestSecond(times, 'calendar'),
        sliding: busiestSecond(times, 'sliding'),
        lateP50: pct(late, 50),
        lateP99: pct(late, 99),
        arrival,
        leftLate,
        transit,
        answered,
        missed: deps.counters.callsMissed - from.missed,
        deferred: deps.counters.callsDeferred - from.deferred,
      };
    };
    const answeredMean = (d: Awaited<ReturnType<typeof drain>>) =>
      d.answered.reduce((n, x) => n + x, 0) / Math.max(1, d.answered.length);
    const providerLine = (window: RateWindow, d: Awaited<ReturnType<typeof drain>>) =>
      `provider (${window})  ${d.sends} sends in ${d.seconds.toFixed(1)} s: ${d.steady.toFixed(2)}/s from first to last against ${RATE}/s configured (${((d.steady / RATE) * 100).toFixed(1)}%; goal >= 99%; the second half ${d.secondHalf.toFixed(2)}/s, ${((d.secondHalf / RATE) * 100).toFixed(1)}%; the line's widening caps it at ${((1000 / (1000 + WINDOW_MARGIN_MS)) * 100).toFixed(1)}%), ${d.throttled} throttled by the stand-in (goal 0); busiest calendar second ${d.calendar}, busiest sliding second ${d.sliding} (rate ${RATE}); calls after their place's instant p50 ${d.lateP50} ms, p99 ${d.lateP99} ms; reached the provider after their planned instant min ${d.arrival[0]} ms, p50 ${pct(d.arrival, 50)} ms, p99 ${pct(d.arrival, 99)} ms, max ${d.arrival.at(-1)} ms (left after it p50 ${pct(d.leftLate, 50)} / p99 ${pct(d.leftLate, 99)} / max ${d.leftLate.at(-1)} ms, then on the way p50 ${pct(d.transit, 50)} / p99 ${pct(d.transit, 99)} / max ${d.transit.at(-1)} ms); answered after their planned instant p50 ${pct(d.answered, 50)} ms, mean ${answeredMean(d).toFixed(1)} ms, p99 ${pct(d.answered, 99)} ms (the line holds the calls a second later to each answer: these answers cap it at ${(100000 / (1000 + answeredMean(d))).toFixed(1)}%); ${d.missed} calls missed their instant and were planned again, ${d.deferred} planned past the worker's wait went back to the queue`;
    const calendarRun = await drain('calendar', async () => ids.length);
    // The workers run on: these sends queue behind nothing and go out as they are accepted.
    const slidingRun = await drain('sliding', async () => {
      for (let b = 0; b < SLIDING_BATCHES; b++) {
        const out = await resend.batch.send(Array.from({ length: 100 }, (_, i) => email(30_000 + b * 100 + i)));
        if (out.error) throw new Error(`batch failed: ${out.error.message}`);
        ids.push(...out.data!.data.map((d) => d.id));
      }
      return SLIDING_BATCHES * 100;
    });
    await new Promise((r) => setTimeout(r, 2000));
    const statuses = new Map<string, number>();
    for (const id of ids) {
      const s = (await getEmail(deps, team.id, id)).status;
      statuses.set(s, (statuses.get(s) ?? 0) + 1);
    }

    console.log(`POST /emails/batch  ${BATCHES} x 100: ${((BATCHES * 100) / batchSeconds).toFixed(1)} accepted/s`);
    console.log(
      `  per accepted email: ${per(afterBatch.ddbWrites, after.ddbWrites, BATCHES * 100)} DynamoDB writes, ${per(afterBatch.ddbReads, after.ddbReads, BATCHES * 100)} reads, ${per(afterBatch.queueMessages, after.queueMessages, BATCHES * 100)} queue messages`,
    );
    console.log(cpuLine('accepted email', BATCHES * 100, batchCpu0, batchCpu1, batchSeconds, 2000));
    console.log(
      `SMTP relay          ${SMTP_MESSAGES} messages: ${relayOne.toFixed(1)} accepted/s over 1 connection, ${relayTen.toFixed(1)} accepted/s over 10 (${(relayTen / relayOne).toFixed(2)}x); POST /emails at 16 concurrent is ${(SINGLE / singleSeconds / relayTen).toFixed(2)}x the 10-connection relay`,
    );
    console.log(providerLine('calendar', calendarRun));
    console.log(providerLine('sliding', slidingRun));
    console.log(
      `final states        ${[...statuses].map(([s, n]) => `${s} ${n}`).join(', ')} (of ${ids.length}; none lost: ${(statuses.get('delivered') ?? 0) + (statuses.get('sent') ?? 0) === ids.length})`,
    );
  }

  // The later sections run with the workers on and nothing of the above still queued, as after
  // section 3 (when it is skipped, the first section's emails are sent here first).
  host.startWorkers();
  const drainBy = Date.now() + 5 * 60_000;
  while (!ids.every((id) => host.provider.acceptedAt.has(id)) && Date.now() < drainBy)
    await new Promise((r) => setTimeout(r, 100));

  // 3b. The pacing alone, apart from how fast this machine runs the whole pipeline: a backlog of
  // PACED sends drained by PACING_SENDERS concurrent senders (the send worker's default
  // maxConcurrency × batch size), each taking a place in the send line and its provider window as
  // the send worker does. A place more than 2 s ahead goes back (as the queue's DelaySeconds
  // brings a job back, early) and is kept; each call is timed when it would go to the provider.
  if (runs('pacing')) {
    const region = `bench-${Date.now()}`;
    const ready: { place?: number }[] = Array.from({ length: PACED }, () => ({}));
    const calls: { at: number; lateMs: number }[] = [];
    let booked = 0;
    const sender = async (): Promise<void> => {
      while (calls.length < PACED) {
        const job = ready.shift();
        if (!job) {
          await new Promise((r) => setTimeout(r, 5));
          continue;
        }
        let place = job.place;
        if (place === undefined) {
          const slot = await takeSendSlot(deps, region);
          if (slot.at - Date.now() > WAIT_IN_WORKER_MS) {
            booked++;
            setTimeout(
              () => ready.push({ place: slot.place }),
              Math.max(0, Math.ceil((slot.at - Date.now() - WAIT_IN_WORKER_MS) / 1000) * 1000),
            );
            continue;
          }
          place = slot.place;
        }
        const hold = await awaitProviderWindow(deps, region, place, WAIT_IN_WORKER_MS);
        if (hold.kind === 'later') {
          setTimeout(() => ready.push({ place }), Math.max(0, hold.at - Date.now() - WAIT_IN_WORKER_MS));
          continue;
        }
        // As the SES client does: a timer, then the last milliseconds watched, then the call.
        if (hold.at - 2 - Date.now() > 0) await new Promise((r) => setTimeout(r, hold.at - 2 - Date.now()));
        while (Date.now() < hold.at) {
          /* the instant */
        }
        const now = Date.now();
        calls.push({ at: now, lateMs: now - placeInstant(place, RATE) });
        answeredProviderCall(deps, region, hold.at, now);
      }
    };
    await Promise.all(Array.from({ length: PACING_SENDERS }, sender));
    const times = calls.map((c) => c.at).sort((a, b) => a - b);
    const pacedRate = (times.length - 1) / ((times.at(-1)! - times[0]!) / 1000);
    const late = calls.map((x) => x.lateMs).sort((a, b) => a - b);
    const calendar = busiestSecond(times, 'calendar');
    const sliding = busiestSecond(times, 'sliding');
    console.log(
      `pacing              ${PACED} sends queued at once, ${PACING_SENDERS} senders, ${RATE}/s configured: ${pacedRate.toFixed(2)}/s from first to last (${((pacedRate / RATE) * 100).toFixed(1)}% of the rate), busiest calendar second ${calendar}, busiest sliding second ${sliding} (${Math.max(calendar, sliding) > RATE ? 'ABOVE' : 'not above'} the rate); ${booked} booked ahead; calls after their place's instant p50 ${pct(late, 50)} ms / p99 ${pct(late, 99)} ms`,
    );
  }

  // 4. Audience: batch-create contacts 1,000 at a time up to CONTACTS, then page through them all.
  if (runs('contacts')) {
    const batchTimes: number[] = [];
    const contacts0 = snapshot(deps.counters);
    const contactsCpu0 = cpuMs();
    const contactsStart = performance.now();
    for (let b = 0; b < CONTACTS / 1000; b++) {
      const items = Array.from({ length: 1000 }, (_, i) => ({
        email: `contact${b * 1000 + i}@example.com`,
        first_name: `C${i}`,
      }));
      const start = performance.now();
      const res = await fetch(`${host.baseUrl}/contacts/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify(items),
      });
      if (res.status !== 200) throw new Error(`contact batch failed: ${await res.text()}`);
      batchTimes.push(performance.now() - start);
    }
    const contacts1 = snapshot(deps.counters);
    const contactsCpu1 = cpuMs();
    const contactsSeconds = (performance.now() - contactsStart) / 1000;
    const listStart = performance.now();
    let listed = 0;
    let cursor: string | undefined;
    for (;;) {
      const page = await resend.contacts.list({ limit: 100, ...(cursor ? { after: cursor } : {}) });
      if (page.error) throw new Error(page.error.message);
      listed += page.data!.data.length;
      if (!page.data!.has_more) break;
      cursor = page.data!.data.at(-1)!.id;
    }
    const listMs = performance.now() - listStart;
    batchTimes.sort((a, b) => a - b);
    const perBatch = (k: 'ddbWrites' | 'ddbRequests' | 'queueRequests') =>
      Math.round((contacts1[k] - contacts0[k]) / batchTimes.length);
    console.log(
      `contacts            batch-create 1,000: median ${(batchTimes[Math.floor(batchTimes.length / 2)]! / 1000).toFixed(2)} s (goal < 1 s; ${batchTimes.length} batches, ${(batchTimes[Math.floor(batchTimes.length / 2)]! / pct(latencies, 50)).toFixed(1)}x the POST /emails p50); list ${listed} in pages of 100: ${(listMs / 1000).toFixed(2)} s`,
    );
    console.log(
      `  per batch of 1,000: ${perBatch('ddbWrites')} DynamoDB writes in ${perBatch('ddbRequests')} requests, ${perBatch('queueRequests')} queue requests`,
    );
    console.log(cpuLine('contact', CONTACTS, contactsCpu0, contactsCpu1, contactsSeconds, 1000));
  }

  // 5. The sweeper against stored mail that is not due: SCHEDULED emails a week out (accepted
  // through the accept path; the schedules themselves are not the point here, so not created).
  // The sweep runs an hour later (the mail is long past the sweeper's grace period, still a week from due).
  if (runs('sweeper')) {
    const later = { ...deps, clock: { now: () => Date.now() + 3_600_000 } };
    const sweepRun = async () => {
      const at = snapshot(deps.counters);
      const out = await sweepStuckEmails(later);
      const parked = await releaseParkedEmails(later);
      return {
        reads: deps.counters.ddbReads - at.ddbReads,
        items: deps.counters.ddbItemsRead - at.ddbItemsRead,
        requeued: out.requeued + parked.released,
      };
    };
    const empty = await sweepRun();
    const weekOut = Date.now() + 7 * 86_400_000;
    const noSchedules = { ...deps, scheduler: { schedule: async () => undefined, cancel: async () => undefined } };
    for (let b = 0; b < SCHEDULED / 100; b++) {
      await acceptEmails(
        noSchedules,
        callerOfKey(key, team),
        Array.from({ length: 100 }, (_, i) => ({
          from: { name: 'Bench', address: 'bench@bench.example.com', formatted: 'Bench <bench@bench.example.com>' },
          to: [`later${b * 100 + i}@example.com`],
          cc: [],
          bcc: [],
          replyTo: [],
          subject: 'Next week',
          html: null,
          text: 'Later.',
          headers: null,
          tags: [],
          topicId: null,
          attachments: [],
          scheduledAt: weekOut,
          domain,
          held: false,
        })),
      );
    }
    const loaded = await sweepRun();
    console.log(
      `sweeper             one run (stuck sweep + parked release): ${empty.reads} DynamoDB reads, ${empty.items} items read with no mail waiting; ${loaded.reads} reads, ${loaded.items} items read with ${SCHEDULED} emails accepted an hour earlier and scheduled a week out (${loaded.requeued} re-queued)`,
    );
  }

  // 6. Webhooks: events to one endpoint and to 100, record to receipt.
  if (runs('webhooks')) {
    await benchWebhooks(host);
  }

  // 6b. Large email: a 5 MB HTML body and a 10 MB attachment, content store and cost per email.
  if (runs('large')) {
    await benchLargeEmails(host);
  }

  // 7. A broadcast. The planner for PLANNED contacts (pure: its cost and what it answers), then a
  // real run of BROADCAST contacts through fan-out and the broadcast workers against the stand-in at
  // the bench's rate, with one transactional probe a second beside it; the same probes idle first.
  if (runs('broadcast')) {
    const planStart = performance.now();
    const planned = planBroadcast({
      audience: PLANNED,
      providerRate: RATE,
      now: Date.now(),
      requestedAt: Date.now(),
      busyUntil: 0,
      daily: null,
    });
    const planMs = performance.now() - planStart;
    const segment = (await resend.segments.create({ name: 'Bench broadcast' })).data!.id;
    for (let b = 0; b < BROADCAST; b += 1000) {
      const items = Array.from({ length: Math.min(1000, BROADCAST - b) }, (_, i) => ({
        email: `listener${b + i}@example.com`,
        first_name: `L${b + i}`,
        segments: [{ id: segment }],
      }));
      const res = await fetch(`${host.baseUrl}/contacts/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify(items),
      });
      if (res.status !== 200) throw new Error(`broadcast contacts failed: ${await res.text()}`);
    }
    const probeIds = new Set<string>();
    const probe = async (n: number): Promise<number> => {
      const out = await resend.emails.send(email(900_000 + n));
      if (out.error) throw new Error(`probe failed: ${out.error.message}`);
      const accepted = Date.now();
      probeIds.add(out.data!.id);
      for (;;) {
        const at = host.provider.acceptedAt.get(out.data!.id);
        if (at !== undefined) return at - accepted;
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    const idle: number[] = [];
    for (let n = 0; n < 20; n++) {
      idle.push(await probe(n));
      await new Promise((r) => setTimeout(r, 500));
    }
    const counters0 = snapshot(deps.counters);
    deps.counters.byFunction = new Map();
    const made = await resend.broadcasts.create({
      segmentId: segment,
      from: 'Bench <bench@bench.example.com>',
      subject: 'Hello {{{FIRST_NAME|there}}}',
      text: 'Hi {{{FIRST_NAME}}}. {{{UNSUBSCRIBE_URL}}}',
    });
    if (made.error) throw new Error(`broadcast create failed: ${made.error.message}`);
    const sentAt = Date.now();
    const answer = (await resend.broadcasts.send(made.data!.id)).data as unknown as { finishes_at: string };
    const announced = Date.parse(answer.finishes_at);
    const busy: number[] = [];
    let done = false;
    // Watched at the stand-in (no table reads, so the per-recipient figures are the pipeline's own),
    // then read once through the API when every recipient has reached the provider.
    const watcher = (async () => {
      const deadline = announced + 10 * 60_000;
      while (!done && Date.now() < deadline) {
        const reached = [...host.provider.acceptedAt].filter(([id, at]) => at >= sentAt && !probeIds.has(id)).length;
        if (
          reached >= BROADCAST &&
          ((await resend.broadcasts.get(made.data!.id)).data as unknown as { status: string }).status === 'sent'
        )
          done = true;
        else await new Promise((r) => setTimeout(r, 1000));
      }
    })();
    for (let n = 100; !done; n++) {
      busy.push(await probe(n));
      await new Promise((r) => setTimeout(r, 1000));
    }
    await watcher;
    const broadcastSends = [...host.provider.acceptedAt]
      .filter(([id, at]) => at >= sentAt && !probeIds.has(id))
      .map(([, at]) => at)
      .sort((a, b) => a - b);
    const first = broadcastSends[0]!;
    const last = broadcastSends.at(-1)!;
    const achievedRate = (broadcastSends.length - 1) / ((last - first) / 1000);
    const finishError = Math.abs(last - announced) / (announced - sentAt);
    const spent = snapshot(deps.counters);
    const byFunction = [...(deps.counters.byFunction ?? [])].sort(([a], [b]) => a.localeCompare(b));
    deps.counters.byFunction = undefined;
    idle.sort((a, b) => a - b);
    busy.sort((a, b) => a - b);
    console.log(
      `broadcast plan      ${PLANNED.toLocaleString('en')} contacts at ${RATE}/s: planned in ${planMs.toFixed(2)} ms, ${broadcastRate(RATE)}/s for broadcasts, ${planned.days} UTC days, last send in ${((planned.finishesAt - planned.startsAt) / 3_600_000).toFixed(2)} h${planned.warning ? `, warning ${planned.warning.type}` : ''}`,
    );
    console.log(
      `broadcast run       ${broadcastSends.length} of ${BROADCAST} contacts (stand-in at ${RATE}/s, real clock): ${achievedRate.toFixed(2)}/s against the planned ${broadcastRate(RATE)}/s (${((achievedRate / broadcastRate(RATE)) * 100).toFixed(1)}%); last send ${((last - announced) / 1000).toFixed(1)} s from the first finishes_at (${(finishError * 100).toFixed(2)}% of the planned duration)`,
    );
    console.log(
      `  per recipient: ${per(spent.ddbWrites, counters0.ddbWrites, BROADCAST)} DynamoDB writes, ${per(spent.ddbReads, counters0.ddbReads, BROADCAST)} reads, ${per(spent.queueMessages, counters0.queueMessages, BROADCAST)} queue messages (fan-out, sending and the provider's events, probes included; the goal is the fan-out's, below)`,
    );
    // The same figures by the function that spent them. The goal is the fan-out's (the broadcast's
    // routes and its fan-out worker); sending each email and the provider's events are apart.
    const fanOut = ['broadcasts', 'broadcast-fanout'];
    const line = (c: FunctionCounts) =>
      `${(c.ddbWrites / BROADCAST).toFixed(2)} writes, ${(c.ddbReads / BROADCAST).toFixed(2)} reads, ${(c.queueMessages / BROADCAST).toFixed(2)} queue messages`;
    const ofFanOut = byFunction
      .filter(([n]) => fanOut.includes(n))
      .reduce(
        (t, [, c]) => ({
          ddbWrites: t.ddbWrites + c.ddbWrites,
          ddbReads: t.ddbReads + c.ddbReads,
          queueMessages: t.queueMessages + c.queueMessages,
        }),
        { ddbWrites: 0, ddbReads: 0, queueMessages: 0 },
      );
    console.log(`  per recipient, the fan-out (${fanOut.join(', ')}): ${line(ofFanOut)} (goal <= 4, <= 3, <= 1)`);
    console.log(
      `  by function, per recipient (${per(spent.broadcastTurnedAway, counters0.broadcastTurnedAway, BROADCAST)} sends a recipient turned away by the broadcast share of a second, each back in a second):`,
    );
    for (const [name, c] of byFunction) console.log(`    ${name.padEnd(26)} ${line(c)}`);
    console.log(
      `  transactional accept-to-provider: idle p50 ${pct(idle, 50)} ms, p99 ${pct(idle, 99)} ms; during the broadcast p50 ${pct(busy, 50)} ms, p99 ${pct(busy, 99)} ms (${busy.length} probes; p50 ${((pct(busy, 50) / pct(idle, 50)) * 100).toFixed(0)}% of idle)`,
    );

    // 7b. A 100,000-contact broadcast under a simulated clock (real planner, real send line).
    const simRate = Number(process.env.BENCH_SIM_RATE ?? 140);
    await benchBroadcastSimulated(deps, {
      contacts: Number(process.env.BENCH_SIM_CONTACTS ?? 100_000),
      providerRate: simRate,
      transactional: Math.round(simRate * 0.2),
    });
  }

  // 8. Mailboxes: inbound mail stored through the local MX, and the agent API's drafts and sends
  // at POST /emails's concurrency, their send latency against section 1's p50.
  if (runs('mailboxes')) {
    await benchMailboxes(host, { concurrency: CONCURRENCY, emailsP50Ms: pct(latencies, 50) });
  }

  // 9. Email metrics: the hourly counters' writes per delivered event, and GET /emails/metrics' reads.
  if (runs('metrics')) {
    await benchMetrics(deps, resend, {
      teamId: team.id,
      emailId: ids[0]!,
      events: Number(process.env.BENCH_METRIC_EVENTS ?? 200),
    });
  }
  // 9. Inboxes: resend.inboxes.threads.list on an inbox of 10,000 messages, and the counters' cost.
  if (runs('inboxes')) await benchInboxes(host);
  // 9. Automations: events accepted per second, and a sequence's steps from due to done with their operations.
  if (runs('automations')) {
    await benchAutomations(host, {
      resend,
      secret,
      teamId: team.id,
      from: 'Bench <bench@bench.example.com>',
      contacts: Number(process.env.BENCH_AUTOMATION_CONTACTS ?? 500),
      concurrency: CONCURRENCY,
    });
  }
} finally {
  await host.stop();
}
if (runs('aws-scale')) await benchAwsScale();
