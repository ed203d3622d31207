/**
 * The request-log figure of `npm run bench`: the accept path (POST /emails at the bench's
 * concurrency) with request logging on and off (REQUEST_LOGS_DISABLED), in alternating rounds
 * (on, off, off, on, ...) after one round not counted, so drift of the machine falls on both alike. The goal: the
 * accept path with logging on within 5% of it off.
 */
import { setDeps } from '@mailstack/core/runtime/deps';
import type { LocalHost } from '../lib/local/host.ts';

const ROUNDS = Number(process.env.BENCH_LOG_ROUNDS ?? 8);
const PER_ROUND = Number(process.env.BENCH_LOG_PER_ROUND ?? 100);

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Runs `send` PER_ROUND times at `concurrency` per round with logging on and off; prints both and their ratio. */
export const benchRequestLogs = async (
  host: LocalHost,
  send: (n: number) => Promise<void>,
  concurrency: number,
): Promise<void> => {
  const modes = { on: { latencies: [] as number[], seconds: 0 }, off: { latencies: [] as number[], seconds: 0 } };
  const queued = { on: 0, off: 0 };
  const calls = { on: 0, off: 0 };
  const cpuMs = { on: 0, off: 0 };
  let n = 0;
  try {
    // A round not counted first: the first sends after a pause run slow whichever the mode (an A/A run showed it).
    for (let i = 0; i < PER_ROUND; i += concurrency)
      await Promise.all(Array.from({ length: concurrency }, () => send(n++)));
    for (let round = 0; round < ROUNDS; round++) {
      const mode = round % 4 === 0 || round % 4 === 3 ? 'on' : 'off';
      setDeps({ ...host.deps, config: { ...host.deps.config, REQUEST_LOGS_DISABLED: mode === 'off' } });
      const messagesBefore = host.deps.counters.queueMessages;
      const callsBefore = host.deps.counters.queueRequests;
      const cpuBefore = process.cpuUsage();
      let done = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (done < PER_ROUND) {
            done++;
            const start = performance.now();
            await send(n++);
            modes[mode].latencies.push(performance.now() - start);
          }
        }),
      );
      modes[mode].seconds += (performance.now() - t0) / 1000;
      queued[mode] += host.deps.counters.queueMessages - messagesBefore;
      calls[mode] += host.deps.counters.queueRequests - callsBefore;
      const cpu = process.cpuUsage(cpuBefore);
      cpuMs[mode] += (cpu.user + cpu.system) / 1000;
    }
  } finally {
    setDeps(host.deps);
  }
  const figure = (mode: 'on' | 'off') => {
    const sorted = [...modes[mode].latencies].sort((a, b) => a - b);
    return {
      rate: sorted.length / modes[mode].seconds,
      p50: pct(sorted, 50),
      p99: pct(sorted, 99),
      queuedPerRequest: queued[mode] / sorted.length,
      callsPerRequest: calls[mode] / sorted.length,
      cpuPerRequest: cpuMs[mode] / sorted.length,
    };
  };
  const on = figure('on');
  const off = figure('off');
  const change = (a: number, b: number) => `${a >= b ? '+' : ''}${(((a - b) / b) * 100).toFixed(1)}%`;
  console.log(
    `request logs        POST /emails, ${concurrency} concurrent, ${ROUNDS} alternating rounds of ${PER_ROUND}: logging on ${on.rate.toFixed(1)} accepted/s, p50 ${on.p50.toFixed(1)} ms, p99 ${on.p99.toFixed(1)} ms; off ${off.rate.toFixed(1)} accepted/s, p50 ${off.p50.toFixed(1)} ms, p99 ${off.p99.toFixed(1)} ms`,
  );
  console.log(
    `  on against off: throughput ${change(on.rate, off.rate)}, p50 ${change(on.p50, off.p50)}, p99 ${change(on.p99, off.p99)} (goal: within 5%); per request ${on.queuedPerRequest.toFixed(2)} queue messages in ${on.callsPerRequest.toFixed(2)} queue calls on, ${off.queuedPerRequest.toFixed(2)} in ${off.callsPerRequest.toFixed(2)} off; CPU of this process (client, host, queue engine) per request ${on.cpuPerRequest.toFixed(2)} ms on, ${off.cpuPerRequest.toFixed(2)} ms off`,
  );
};
