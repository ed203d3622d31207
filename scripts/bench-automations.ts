/**
 * Automation figures for `npm run bench`: custom events accepted per second through
 * POST /events/send (the SDK's `events.send`, at the run's concurrency), then a sequence
 * (trigger, send, delay 1 s, condition, contact update) run for each of those contacts by the
 * engine in this process, this script playing the automations queue and the scheduler: each
 * step's latency from due (queued, or its schedule's instant) to done (p50, p99), and the table
 * and queue operations per step.
 */
import type { Resend } from 'resend';
import { createDeps } from '@mailstack/core/runtime/deps';
import { runAutomationJob } from '@mailstack/core/domain/automations/engine';
import type { AutomationJob } from '@mailstack/core/domain/automations/jobs';
import { acceptEvent } from '@mailstack/core/domain/automations/send-event';
import type { ScheduleRequest } from '@mailstack/core/ports/scheduler';
import type { LocalHost } from '../lib/local/host.ts';

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export const benchAutomations = async (
  host: LocalHost,
  options: { resend: Resend; secret: string; teamId: string; from: string; contacts: number; concurrency: number },
): Promise<void> => {
  const { resend, teamId, contacts } = options;
  const template = (
    await resend.templates.create({
      name: 'Bench welcome',
      from: options.from,
      subject: 'Welcome',
      html: '<p>Hi</p>',
    } as never)
  ).data!.id;
  await resend.automations.create({
    name: 'Bench sequence',
    status: 'enabled',
    steps: [
      { key: 'start', type: 'trigger', config: { eventName: 'bench.signed_up' } },
      { key: 'welcome', type: 'send_email', config: { template: { id: template } } },
      { key: 'wait', type: 'delay', config: { duration: '1 second' } },
      {
        key: 'opened',
        type: 'condition',
        config: { type: 'rule', field: 'email.opened', operator: 'eq', value: true },
      },
      { key: 'tag', type: 'contact_update', config: { properties: {}, lastName: 'Welcomed' } },
    ],
    connections: [
      { from: 'start', to: 'welcome' },
      { from: 'welcome', to: 'wait' },
      { from: 'wait', to: 'opened' },
      { from: 'opened', to: 'tag', type: 'condition_not_met' },
    ],
  });
  const addresses = Array.from({ length: contacts }, (_, i) => `auto${i}@example.com`);
  for (let i = 0; i < addresses.length; i += 1000)
    await fetch(`${host.baseUrl}/contacts/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify(addresses.slice(i, i + 1000).map((email) => ({ email }))),
    });

  // 1. Events accepted per second through the API (the host's workers are off: they stay queued).
  const latencies: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (next < contacts) {
        const i = next++;
        const t = performance.now();
        const { error } = await resend.events.send({ event: 'bench.page_viewed', email: addresses[i]! });
        if (error) throw new Error(`events.send: ${error.message}`);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  console.log(
    `\nAutomations: ${contacts} events.send at concurrency ${options.concurrency}: ${(contacts / seconds).toFixed(0)} events accepted/s, p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms`,
  );

  // 2. The engine: every contact's run, step by step, with this process as queue and scheduler.
  const jobs: { job: AutomationJob; due: number }[] = [];
  const schedules = new Map<string, ScheduleRequest>();
  const deps = createDeps(host.deps.config, {
    queue: {
      send: async (url, messages) => {
        if (url === host.deps.config.AUTOMATION_QUEUE_URL)
          jobs.push(...messages.map((m) => ({ job: m.body as AutomationJob, due: performance.now() })));
      },
    },
    scheduler: {
      schedule: async (r) => {
        schedules.set(r.name, r);
      },
      cancel: async (name) => {
        schedules.delete(name);
      },
    },
  });
  for (const email of addresses) await acceptEvent(deps, teamId, { event: 'bench.signed_up', email });
  const before = { ...deps.counters };
  const stepLatencies: number[] = [];
  let steps = 0;
  const began = performance.now();
  while (jobs.length || schedules.size) {
    const nowMs = Date.now();
    for (const [name, r] of schedules)
      if (r.at <= nowMs) {
        schedules.delete(name);
        jobs.push({ job: r.body as AutomationJob, due: performance.now() - (nowMs - r.at) });
      }
    if (!jobs.length) {
      await new Promise((r) => setTimeout(r, 20));
      continue;
    }
    const batch = jobs.splice(0, options.concurrency);
    await Promise.all(
      batch.map(async ({ job, due }) => {
        await runAutomationJob(deps, job);
        if (job.kind === 'step') {
          steps++;
          stepLatencies.push(performance.now() - due);
        }
      }),
    );
  }
  const spent = (k: keyof typeof before) => ((deps.counters[k] as number) - (before[k] as number)) / steps;
  stepLatencies.sort((a, b) => a - b);
  console.log(
    `  ${contacts} runs, ${steps} step jobs in ${((performance.now() - began) / 1000).toFixed(1)} s (a 1 s delay in each): step latency from due to done (the whole burst queued at once, ${options.concurrency} at a time) p50 ${pct(stepLatencies, 50).toFixed(1)} ms, p99 ${pct(stepLatencies, 99).toFixed(1)} ms`,
  );
  console.log(
    `  per step (the events' own jobs included): ${spent('ddbRequests').toFixed(1)} DynamoDB requests (${spent('ddbReads').toFixed(1)} reads, ${spent('ddbReadUnits').toFixed(1)} read units, ${spent('ddbWrites').toFixed(1)} writes, ${spent('ddbWriteUnits').toFixed(1)} write units); queue messages are played here: one per step, plus one send job per email`,
  );
};
