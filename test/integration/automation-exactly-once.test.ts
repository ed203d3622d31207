import { describe, expect, it } from 'vitest';
import { createDeps, type Deps } from '@mailstack/core/runtime/deps';
import { keys } from '@mailstack/core/table/keys';
import { getItem, queryAll, updateItem } from '@mailstack/core/table/ops';
import { runAutomationJob } from '@mailstack/core/domain/automations/engine';
import type { AutomationJob } from '@mailstack/core/domain/automations/jobs';
import { acceptEvent } from '@mailstack/core/domain/automations/send-event';
import type { ScheduleRequest } from '@mailstack/core/ports/scheduler';
import { MAX_RUN_STEPS } from '@mailstack/core/limits';
import { readConfig } from '@mailstack/core/runtime/config';
import { deliverEmail } from '@mailstack/core/domain/emails/pipeline/deliver-email';
import type { SendJob } from '@mailstack/core/domain/emails/email';
import { startSesStandIn } from '../../lib/local/stand-ins/ses.ts';
import { freePort } from '../../lib/local/ports.ts';
import { call, local, testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';

class Crash extends Error {}

/** The acceptance size: a welcome sequence for this many contacts. */
const CONTACTS = 100;
const DAY = 86_400_000;

/**
 * The engine's world with this test playing the automations queue, its worker and the scheduler
 * under a clock it moves, so worker deaths can be injected: `afterAccept` kills the worker right
 * after the send use case stored and queued the n-th email (before the step recorded it);
 * `beforeNextJob` after a step's outcome was recorded, before the next step's job was queued.
 * A job that died comes back, as SQS redelivers it.
 */
const world = async (crash: {
  afterAccept?: readonly number[];
  beforeNextJob?: readonly number[];
  afterProvider?: readonly number[];
}) => {
  // A provider stand-in of this world's own, and a send line of its own (a rate no other test uses): this clock runs days ahead.
  const [sesPort, inboxPort] = [await freePort(), await freePort()];
  const ses = await startSesStandIn({ port: sesPort, inboxPort, ratePerSecond: 5000, events: 'send' });
  ses.setEventsSink(async () => undefined);
  const base = createDeps(
    readConfig({ ...local().env, SES_ENDPOINT: `http://127.0.0.1:${sesPort}`, PROVIDER_RATE_PER_SECOND: '4999' }),
  );
  let offset = 0;
  const pendingSends: SendJob[] = [];
  let providerSends = 0;
  const jobs: AutomationJob[] = [];
  const schedules = new Map<string, ScheduleRequest>();
  const sendJobs: { emailId: string }[] = [];
  const counts = { accepted: 0, queued: 0, crashes: 0, jobs: 0 };
  // Only the worker dies: an event's own queuing happens in the API call (a failure there is the client's retry).
  let working = false;
  const deps: Deps = createDeps(base.config, {
    clock: { now: () => Date.now() + offset, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) },
    mail: {
      // Sent at once (the provider window is an instant of this moved clock), then maybe the worker dies.
      send: async (message) => {
        const out = await base.mail.send({ ...message, window: undefined });
        if (crash.afterProvider?.includes(++providerSends))
          throw new Crash('the send worker died after the provider accepted, before recording');
        return out;
      },
    },
    queue: {
      send: async (url, messages) => {
        if (url === base.config.AUTOMATION_QUEUE_URL) {
          if (working && crash.beforeNextJob?.includes(++counts.queued))
            throw new Crash('the worker died after recording a step, before queuing the next');
          jobs.push(...messages.map((m) => m.body as AutomationJob));
        } else if (url === base.config.SEND_QUEUE_URL) {
          sendJobs.push(...messages.map((m) => m.body as { emailId: string }));
          pendingSends.push(...messages.map((m) => m.body as SendJob));
          if (crash.afterAccept?.includes(++counts.accepted))
            throw new Crash('the worker died after the send was accepted, before the step recorded it');
        }
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
  const drain = async () => {
    working = true;
    while (jobs.length) {
      const batch = jobs.splice(0, 8);
      await Promise.all(
        batch.map(async (job) => {
          counts.jobs++;
          try {
            await runAutomationJob(deps, job);
          } catch (error) {
            if (!(error instanceof Crash)) throw error;
            counts.crashes++;
            jobs.push(job);
          }
        }),
      );
    }
    // The send worker: each queued email through the send pipeline; a job that died or asked to wait comes back.
    while (pendingSends.length) {
      const batch = pendingSends.splice(0, 16);
      await Promise.all(
        batch.map(async (job) => {
          try {
            const outcome = await deliverEmail(deps, job);
            if (outcome.kind === 'retry') pendingSends.push(job);
          } catch (error) {
            if (!(error instanceof Crash)) throw error;
            counts.crashes++;
            pendingSends.push(job);
          }
        }),
      );
    }
    working = false;
  };
  /** Moves the clock, fires the schedules now due, and runs what they start. */
  const tick = async (ms: number) => {
    offset += ms;
    for (const [name, r] of schedules)
      if (r.at <= deps.clock.now()) {
        schedules.delete(name);
        jobs.push(r.body as AutomationJob);
      }
    await drain();
  };
  /** Every message a provider accepted: this world's stand-in, and the shared host's (its sweeper may re-queue mail to its own workers). */
  const inbox = async () => {
    const read = async (url: string) =>
      (
        (await (await fetch(`${url}/store`)).json()) as {
          emails: { destination: { to: string[] }; subject?: string }[];
        }
      ).emails;
    return [...(await read(`http://127.0.0.1:${inboxPort}`)), ...(await read(local().inboxUrl))];
  };
  return {
    deps,
    jobs,
    drain,
    tick,
    sendJobs,
    counts,
    schedules,
    inbox,
    verify: (domain: string) => ses.verifyIdentity(domain),
    stop: () => ses.stop(),
  };
};

describe('automations, exactly once', () => {
  it(`runs a welcome sequence for ${CONTACTS} contacts under a moved clock, each getting exactly the mail its path implies, with workers killed at each crash point`, async () => {
    const t = await sendingTeam();
    const template = (
      await t.resend.templates.create({ name: 'Welcome', from: t.from, subject: 'x', html: '<p>Hi</p>' } as any)
    ).data!.id;
    const send = (key: string, subject: string) => ({
      key,
      type: 'send_email' as const,
      config: { template: { id: template }, subject },
    });
    const automation = (
      await t.resend.automations.create({
        name: 'Welcome',
        status: 'enabled',
        steps: [
          { key: 'start', type: 'trigger', config: { eventName: 'user.signed_up' } },
          send('welcome', 'Welcome'),
          { key: 'wait', type: 'delay', config: { duration: '2 days' } },
          {
            key: 'opened',
            type: 'condition',
            config: { type: 'rule', field: 'email.opened', operator: 'eq', value: true },
          },
          send('a', 'Thanks for reading'),
          send('b', 'Did you see this?'),
        ],
        connections: [
          { from: 'start', to: 'welcome' },
          { from: 'welcome', to: 'wait' },
          { from: 'wait', to: 'opened' },
          { from: 'opened', to: 'a', type: 'condition_met' },
          { from: 'opened', to: 'b', type: 'condition_not_met' },
        ],
      })
    ).data!.id;
    const addresses = Array.from({ length: CONTACTS }, (_, i) => `c${i}@${t.domain}`);
    expect(
      (await call('POST', '/contacts/batch', { key: t.secret, body: addresses.map((email) => ({ email })) })).status,
    ).toBe(200);

    const w = await world({
      afterAccept: [1, 7, 50, 99, 120, 199],
      beforeNextJob: [2, 3, 60, 250, 401],
      afterProvider: [1, 33, 100, 150],
    });
    // The world's SES stand-in is the same account: the team's domain is verified there too.
    w.verify(t.domain);
    for (const email of addresses) await acceptEvent(w.deps, t.team.id, { event: 'user.signed_up', email });
    await w.drain();
    // Everyone got the welcome and waits two days: nothing more happens a day later.
    expect(w.schedules.size).toBe(CONTACTS);
    await w.tick(DAY);
    expect(w.schedules.size).toBe(CONTACTS);

    // The even contacts open the welcome.
    const runsOf = () =>
      queryAll(testDeps(), {
        pk: keys.automation.runPartition(t.team.id, automation),
        prefix: keys.automation.runPrefix,
      });
    const emailOf = async (id: string) => (await getItem(testDeps(), keys.email.item(t.team.id, id)))!;
    expect(await runsOf()).toHaveLength(CONTACTS);
    const welcomes = new Map<string, string>();
    for (const job of w.sendJobs) welcomes.set((await emailOf(job.emailId)).to[0], job.emailId);
    expect(welcomes.size).toBe(CONTACTS);
    for (const [i, address] of addresses.entries())
      if (i % 2 === 0)
        await updateItem(testDeps(), keys.email.item(t.team.id, welcomes.get(address)!), {
          set: { engagement: 'opened' },
        });

    await w.tick(DAY + 60_000);
    expect(w.schedules.size).toBe(0);

    // Every run completed; every contact got exactly the welcome and the mail of its branch.
    const runs = await runsOf();
    expect(runs.map((r) => r.status)).toEqual(Array(CONTACTS).fill('completed'));
    const got = new Map<string, string[]>();
    const ids = new Set(w.sendJobs.map((j) => j.emailId));
    for (const id of ids) {
      const e = await emailOf(id);
      got.set(e.to[0], [...(got.get(e.to[0]) ?? []), e.subject].sort());
      expect(e.tags).toEqual(expect.arrayContaining([{ name: 'automation_id', value: automation }]));
    }
    for (const [i, address] of addresses.entries())
      expect(got.get(address), address).toEqual(
        ['Welcome', i % 2 === 0 ? 'Thanks for reading' : 'Did you see this?'].sort(),
      );
    // One email per send step: a redelivered step found its email and queued nothing more.
    expect(ids.size).toBe(CONTACTS * 2);
    expect(w.sendJobs.length).toBe(CONTACTS * 2);
    expect(w.counts.crashes).toBe(15);
    // The provider took each email once, crashes after it accepted included.
    const received = new Map<string, number>();
    for (const m of await w.inbox())
      for (const to of m.destination.to) if (to.endsWith(`@${t.domain}`)) received.set(to, (received.get(to) ?? 0) + 1);
    expect([...received.values()].filter((n) => n !== 2)).toEqual([]);
    expect(received.size).toBe(CONTACTS);
    await w.stop();
  }, 300_000);

  it(`ends a run that loops through a delay at MAX_RUN_STEPS (${MAX_RUN_STEPS}) steps, failed`, async () => {
    const t = await sendingTeam();
    const automation = (
      await t.resend.automations.create({
        name: 'Forever',
        status: 'enabled',
        steps: [
          { key: 'start', type: 'trigger', config: { eventName: 'loop.start' } },
          { key: 'wait', type: 'delay', config: { duration: '1 minute' } },
          { key: 'touch', type: 'contact_update', config: { lastName: 'again' } },
        ],
        connections: [
          { from: 'start', to: 'wait' },
          { from: 'wait', to: 'touch' },
          { from: 'touch', to: 'wait' },
        ],
      })
    ).data!.id;
    await t.resend.contacts.create({ email: `loop@${t.domain}` });
    const w = await world({});
    // The world's SES stand-in is the same account: the team's domain is verified there too.
    w.verify(t.domain);
    await acceptEvent(w.deps, t.team.id, { event: 'loop.start', email: `loop@${t.domain}` });
    await w.drain();
    for (let i = 0; i < MAX_RUN_STEPS && w.schedules.size > 0; i++) await w.tick(60_000);
    expect(w.schedules.size).toBe(0);
    const [run] = await queryAll(testDeps(), {
      pk: keys.automation.runPartition(t.team.id, automation),
      prefix: keys.automation.runPrefix,
    });
    expect(run!.status).toBe('failed');
    const steps = await queryAll(testDeps(), {
      pk: keys.automation.stepPartition(t.team.id, run!.id),
      prefix: keys.automation.stepPrefix,
    });
    expect(steps).toHaveLength(MAX_RUN_STEPS);
    await w.stop();
  }, 300_000);

  it('resumes a wait on an event the contact sent after the run reached it, before the wait listened', async () => {
    const t = await sendingTeam();
    await t.resend.automations.create({
      name: 'Cart',
      status: 'enabled',
      steps: [
        { key: 'start', type: 'trigger', config: { eventName: 'cart.created' } },
        { key: 'paid', type: 'wait_for_event', config: { eventName: 'order.paid', timeout: '1 day' } },
        { key: 'thanks', type: 'contact_update', config: { firstName: 'paid' } },
        { key: 'late', type: 'contact_update', config: { firstName: 'late' } },
      ],
      connections: [
        { from: 'start', to: 'paid' },
        { from: 'paid', to: 'thanks', type: 'event_received' },
        { from: 'paid', to: 'late', type: 'timeout' },
      ],
    });
    const email = `cart@${t.domain}`;
    await t.resend.contacts.create({ email });
    const w = await world({});
    // The world's SES stand-in is the same account: the team's domain is verified there too.
    w.verify(t.domain);
    await acceptEvent(w.deps, t.team.id, { event: 'cart.created', email });
    // The trigger's job runs: the run reaches the wait, whose job is queued.
    await runAutomationJob(w.deps, w.jobs.shift()!);
    expect(w.jobs).toHaveLength(1);
    // The payment comes now, and its job runs before the wait's.
    await acceptEvent(w.deps, t.team.id, { event: 'order.paid', email });
    w.jobs.reverse();
    await w.drain();
    expect(w.schedules.size).toBe(0);
    expect((await t.resend.contacts.get({ email })).data!.first_name).toBe('paid');
    await w.stop();
  }, 120_000);
});
