/**
 * Webhook figures for `npm run bench`: events delivered per second to one endpoint and to 100
 * endpoints, and the time from an event's record to its receipt at a real receiver (p50, p99);
 * then a fast endpoint beside a slow one (each endpoint waits in its own line).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTeam } from '@mailstack/core/domain/teams/create-team';
import { createWebhook } from '@mailstack/core/domain/webhooks/create-webhook';
import { recordEvent } from '@mailstack/core/domain/events/record-event';
import type { LocalHost } from '../lib/local/host.ts';

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** A receiver answering 200 (at once, or after `delayMs`), noting when each event arrived and how long after its record. */
const receiver = async (delayMs = 0) => {
  const latencies: number[] = [];
  let count = 0;
  let last = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      last = Date.now();
      count += 1;
      latencies.push(last - Date.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')).created_at));
      if (delayMs > 0) setTimeout(() => res.writeHead(200).end('ok'), delayMs);
      else res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    latencies,
    get count() {
      return count;
    },
    get last() {
      return last;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
};

const run = async (host: LocalHost, endpoints: number, events: number) => {
  const deps = host.deps;
  const team = await createTeam(deps, { name: `Bench webhooks ${endpoints}` });
  const rx = await receiver();
  for (let i = 0; i < endpoints; i++)
    await createWebhook(deps, team.id, { endpoint: `${rx.url}/hook/${i}`, events: ['contact.created'] });
  const expected = endpoints * events;
  const start = Date.now();
  await recordMany(host, team.id, events);
  await waitUntil(() => rx.count >= expected);
  const seconds = (rx.last - start) / 1000;
  await rx.close();
  const sorted = [...rx.latencies].sort((a, b) => a - b);
  return { delivered: rx.count, expected, perSecond: rx.count / seconds, p50: pct(sorted, 50), p99: pct(sorted, 99) };
};

/** Records `events` events, 10 at a time. */
const recordMany = async (host: LocalHost, teamId: string, events: number) => {
  for (let i = 0; i < events; i += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, events - i) }, (_, k) =>
        recordEvent(host.deps, teamId, 'contact.created', { id: `c${i + k}`, email: `c${i + k}@example.com` }),
      ),
    );
  }
};

const waitUntil = async (done: () => boolean) => {
  const deadline = Date.now() + 10 * 60_000;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
};

/**
 * A fast endpoint and one that answers after 3 s, both subscribed to the same events: how fast
 * the fast one is served while the slow one holds its 8 places (it can take 8 / 3 s = 2.7/s).
 */
const beside = async (host: LocalHost, events: number) => {
  const team = await createTeam(host.deps, { name: 'Bench webhooks beside a slow endpoint' });
  const fast = await receiver();
  const slow = await receiver(3_000);
  for (const rx of [slow, fast])
    await createWebhook(host.deps, team.id, { endpoint: rx.url, events: ['contact.created'] });
  const start = Date.now();
  await recordMany(host, team.id, events);
  await waitUntil(() => fast.count >= events);
  const fastSeconds = (fast.last - start) / 1000;
  const slowByThen = slow.count;
  await waitUntil(() => slow.count >= events);
  const slowSeconds = (slow.last - start) / 1000;
  await Promise.all([fast.close(), slow.close()]);
  const sorted = [...fast.latencies].sort((a, b) => a - b);
  return {
    fast: { delivered: fast.count, perSecond: fast.count / fastSeconds, p99: pct(sorted, 99) },
    slow: { delivered: slow.count, perSecond: slow.count / slowSeconds, byThen: slowByThen },
  };
};

/** Runs the figures on a started host (workers running) and prints them. */
export const benchWebhooks = async (host: LocalHost): Promise<void> => {
  const oneEvents = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 200);
  const fanEvents = Number(process.env.BENCH_WEBHOOK_FAN_EVENTS ?? 5);
  const one = await run(host, 1, oneEvents);
  const many = await run(host, 100, fanEvents);
  console.log(
    `webhooks            1 endpoint: ${one.delivered}/${one.expected} events, ${one.perSecond.toFixed(1)} delivered/s; record->receipt p50 ${one.p50} ms, p99 ${one.p99} ms`,
  );
  console.log(
    `                    100 endpoints: ${many.delivered}/${many.expected} deliveries (${fanEvents} events each), ${many.perSecond.toFixed(1)} delivered/s; record->receipt p50 ${many.p50} ms, p99 ${many.p99} ms`,
  );
  console.log(
    `                    100 endpoints / 1 endpoint throughput: ${(many.perSecond / one.perSecond).toFixed(2)}x`,
  );
  const side = await beside(host, Number(process.env.BENCH_WEBHOOK_BESIDE_EVENTS ?? 100));
  console.log(
    `                    beside a slow endpoint (3 s an answer): the fast one ${side.fast.delivered} events at ${side.fast.perSecond.toFixed(1)}/s, p99 ${side.fast.p99} ms (${side.slow.byThen} reached the slow one by then); the slow one ${side.slow.delivered} at ${side.slow.perSecond.toFixed(2)}/s (8 in flight allow 2.67/s)`,
  );
};
