import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { createWebhook } from '@mailstack/core/domain/webhooks/create-webhook';
import { rotateWebhookSecret } from '@mailstack/core/domain/webhooks/rotate-webhook-secret';
import {
  deliverWebhook,
  DELIVERY,
  type DeliveryJob,
  type DeliveryObserver,
} from '@mailstack/core/domain/webhooks/deliver';
import { deliveryStore, webhookStore } from '@mailstack/core/table/webhooks';
import { endpointLimits } from '@mailstack/core/table/webhook-limits';
import { ownerNotices, notifyOwners } from '@mailstack/core/domain/webhooks/owner-notices';
import { updateTeam } from '@mailstack/core/domain/teams/update-team';
import { addMember } from '@mailstack/core/domain/people/add-member';
import { createTeamFor } from '@mailstack/core/domain/people/create-team-for';
import { createUser } from '@mailstack/core/domain/people/create-user';
import { local, newTeam, testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { useReceivers, type Received } from '../support/receiver.ts';
import { engineUnderTest } from '../support/webhook-engine.ts';

const receiver = useReceivers();

/** The signature candidate the standardwebhooks library computes for a delivery with `secret`, at the delivery's own timestamp. */
const signedWith = (r: Received, secret: string): string =>
  new StandardWebhook(secret).sign(
    String(r.headers['webhook-id']),
    new Date(Number(r.headers['webhook-timestamp']) * 1000),
    r.body,
  );

/** Checks a delivery's signature with the standardwebhooks library at its own timestamp (the clock here is fake). */
const expectSigned = (r: Received, secret: string) => {
  expect(String(r.headers['webhook-signature']).split(' ')).toContain(signedWith(r, secret));
};

const HOUR = 3_600_000;

describe('delivery engine (fake clock, real receiver, real table)', () => {
  it('retries at 5 s, 5 min, 30 min, 2 h, 5 h, 10 h with the same webhook-id, then exhausts; waits over 15 min go through the scheduler', async () => {
    const { team } = await newTeam();
    const rx = await receiver(() => ({ status: 500, body: 'boom' }));
    const engine = engineUnderTest();
    const w = await createWebhook(engine.deps, team.id, { endpoint: rx.url, events: ['contact.created'] });
    const {
      jobs: [job],
    } = await engine.emit(team.id);
    const waits: [number, string][] = [];
    for (let attempt = 1; attempt <= 7; attempt++) {
      expect(await deliverWebhook(engine.deps, job!)).toEqual({ kind: 'done' });
      expect(rx.received).toHaveLength(attempt);
      const next = engine.takeNext();
      if (!next) break;
      waits.push([next.delayMs, next.via]);
      const row = await deliveryStore.get(engine.deps, team.id, w.id, job!.eventId);
      expect(row).toMatchObject({
        status: 'pending',
        failures: attempt,
        nextAttemptAt: engine.clock.now() + next.delayMs,
      });
      // A copy of the job that arrives early does nothing.
      expect(await deliverWebhook(engine.deps, job!)).toEqual({ kind: 'done' });
      expect(rx.received).toHaveLength(attempt);
      engine.clock.t += next.delayMs;
    }
    expect(waits).toEqual([
      [5_000, 'queue'],
      [300_000, 'queue'],
      [1_800_000, 'scheduler'],
      [7_200_000, 'scheduler'],
      [18_000_000, 'scheduler'],
      [36_000_000, 'scheduler'],
    ]);
    expect(rx.received).toHaveLength(7);
    expect(new Set(rx.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(rx.received.map((r) => r.body)).size).toBe(1);
    for (const r of rx.received) expectSigned(r, w.secret);
    expect(await deliveryStore.get(engine.deps, team.id, w.id, job!.eventId)).toMatchObject({
      status: 'failed',
      endReason: 'exhausted',
      failures: 7,
      nextAttemptAt: null,
    });
    const { items: attempts } = await deliveryStore.attempts(engine.deps, team.id, w.id, job!.eventId, { limit: 100 });
    expect(attempts.map((a) => [a.httpStatusCode, a.response])).toEqual(Array(7).fill([500, 'boom']));
  });

  it('honours a 429 Retry-After up to one hour without counting it; a longer one counts as a failed attempt', async () => {
    const { team } = await newTeam();
    const replies = [
      { status: 429, headers: { 'retry-after': '120' } },
      { status: 429, headers: { 'retry-after': '7200' } },
      { status: 200 },
    ];
    const rx = await receiver((_r, n) => replies[n - 1]!);
    const engine = engineUnderTest();
    const w = await createWebhook(engine.deps, team.id, { endpoint: rx.url, events: ['contact.created'] });
    const {
      jobs: [job],
    } = await engine.emit(team.id);

    await deliverWebhook(engine.deps, job!);
    expect(engine.takeNext()).toMatchObject({ delayMs: 120_000, via: 'queue' });
    expect(await deliveryStore.get(engine.deps, team.id, w.id, job!.eventId)).toMatchObject({
      status: 'pending',
      failures: 0,
    });
    engine.clock.t += 120_000;

    await deliverWebhook(engine.deps, job!);
    expect(engine.takeNext()).toMatchObject({ delayMs: 5_000 });
    expect(await deliveryStore.get(engine.deps, team.id, w.id, job!.eventId)).toMatchObject({
      status: 'pending',
      failures: 1,
    });
    engine.clock.t += 5_000;

    await deliverWebhook(engine.deps, job!);
    expect(engine.takeNext()).toBeUndefined();
    expect(await deliveryStore.get(engine.deps, team.id, w.id, job!.eventId)).toMatchObject({ status: 'success' });
    expect(rx.received).toHaveLength(3);
  });

  it('drops a delivery as exhausted 24 hours after queuing, without another request', async () => {
    const { team } = await newTeam();
    // An endpoint that always asks for an hour's patience: never counted, so only the lifetime ends it.
    const rx = await receiver(() => ({ status: 429, headers: { 'retry-after': '3600' } }));
    const engine = engineUnderTest();
    const w = await createWebhook(engine.deps, team.id, { endpoint: rx.url, events: ['contact.created'] });
    const queuedAt = engine.clock.now();
    const {
      jobs: [job],
    } = await engine.emit(team.id);
    for (let i = 0; i < 30; i++) {
      await deliverWebhook(engine.deps, job!);
      const next = engine.takeNext();
      if (!next) break;
      engine.clock.t += next.delayMs;
    }
    expect(rx.received).toHaveLength(24);
    expect(engine.clock.now()).toBe(queuedAt + 24 * HOUR);
    expect(await deliveryStore.get(engine.deps, team.id, w.id, job!.eventId)).toMatchObject({
      status: 'failed',
      endReason: 'exhausted',
      failures: 0,
    });
  });

  it('disables an endpoint after 20 consecutive exhausted deliveries (owners told at ten and at twenty); re-enabling through the SDK brings it back', async () => {
    const { team, resend } = await newTeam();
    const rx = await receiver();
    const notices: string[] = [];
    const observer: DeliveryObserver = {
      endpointChanged: async (_d, _w, change) => {
        notices.push(change);
      },
    };
    const engine = engineUnderTest();
    const w = await createWebhook(engine.deps, team.id, { endpoint: rx.url, events: ['contact.created'] });
    const jobs = [];
    for (let i = 0; i < 21; i++) jobs.push(...(await engine.emit(team.id)).jobs);
    engine.clock.t += DELIVERY.lifetimeMs;
    for (const [i, job] of jobs.slice(0, 19).entries()) {
      await deliverWebhook(engine.deps, job, observer);
      expect((await webhookStore.get(engine.deps, team.id, w.id))!.consecutiveExhausted).toBe(i + 1);
    }
    expect((await resend.webhooks.get(w.id)).data!.status).toBe('enabled');
    await deliverWebhook(engine.deps, jobs[19]!, observer);
    expect((await resend.webhooks.get(w.id)).data!.status).toBe('disabled');
    expect(notices.filter((n) => n === 'disabled')).toHaveLength(1);
    expect(notices.filter((n) => n === 'failing').length).toBeGreaterThanOrEqual(1);
    // The 21st, queued before the disable, is dropped rather than delivered.
    await deliverWebhook(engine.deps, jobs[20]!, observer);
    expect(await deliveryStore.get(engine.deps, team.id, w.id, jobs[20]!.eventId)).toMatchObject({ status: 'failed' });
    // Events while disabled are not even queued.
    expect((await engine.emit(team.id)).jobs).toEqual([]);
    expect(rx.received).toHaveLength(0);

    expect((await resend.webhooks.update(w.id, { status: 'enabled' })).error).toBeNull();
    expect((await webhookStore.get(engine.deps, team.id, w.id))!.consecutiveExhausted).toBe(0);
    const {
      jobs: [fresh],
    } = await engine.emit(team.id);
    await deliverWebhook(engine.deps, fresh!, observer);
    expect(rx.received).toHaveLength(1);
    expect(await deliveryStore.get(engine.deps, team.id, w.id, fresh!.eventId)).toMatchObject({ status: 'success' });
  });

  it('signs with both secrets inside a rotation overlap, and with only the new one once the overlap ran out', async () => {
    const { team } = await newTeam();
    const rx = await receiver();
    const engine = engineUnderTest();
    const w = await createWebhook(engine.deps, team.id, { endpoint: rx.url, events: ['contact.created'] });
    const rotated = await rotateWebhookSecret(engine.deps, team.id, w.id, { overlap_hours: 2 });
    const expiresAt = engine.clock.now() + 2 * HOUR;
    expect(rotated.previousSecretExpiresAt).toBe(expiresAt);
    const candidates = (r: Received) => String(r.headers['webhook-signature']).split(' ');
    const deliverOne = async () => {
      const {
        jobs: [job],
      } = await engine.emit(team.id);
      await deliverWebhook(engine.deps, job!);
      return rx.received.at(-1)!;
    };

    // One second before the overlap ends: the new secret first, then the old.
    engine.clock.t = expiresAt - 1_000;
    const during = await deliverOne();
    expect(candidates(during)).toEqual([signedWith(during, rotated.secret), signedWith(during, w.secret)]);

    // From the end of the overlap on: one candidate, the new secret's; the old one verifies nothing.
    for (const t of [expiresAt, expiresAt + 10 * HOUR]) {
      engine.clock.t = t;
      const after = await deliverOne();
      expect(candidates(after)).toEqual([signedWith(after, rotated.secret)]);
      expectSigned(after, rotated.secret);
      expect(() => expectSigned(after, w.secret)).toThrow();
    }
    expect(rx.received).toHaveLength(3);
  });

  it('a second rotation inside the overlap replaces the previous secret: the first no longer signs, the second and third do', async () => {
    const { team } = await newTeam();
    const rx = await receiver();
    const engine = engineUnderTest();
    const first = await createWebhook(engine.deps, team.id, { endpoint: rx.url, events: ['contact.created'] });
    const second = await rotateWebhookSecret(engine.deps, team.id, first.id, { overlap_hours: 24 });
    engine.clock.t += HOUR;
    const third = await rotateWebhookSecret(engine.deps, team.id, first.id, { overlap_hours: 24 });
    // The new overlap runs from the second rotation.
    expect(third.previousSecret).toBe(second.secret);
    expect(third.previousSecretExpiresAt).toBe(engine.clock.now() + 24 * HOUR);

    const {
      jobs: [job],
    } = await engine.emit(team.id);
    await deliverWebhook(engine.deps, job!);
    const [r] = rx.received;
    expect(String(r!.headers['webhook-signature']).split(' ')).toEqual([
      signedWith(r!, third.secret),
      signedWith(r!, second.secret),
    ]);
    expectSigned(r!, third.secret);
    expectSigned(r!, second.secret);
    expect(() => expectSigned(r!, first.secret)).toThrow();

    // Past the second rotation's overlap, only the third secret signs.
    engine.clock.t += 24 * HOUR;
    const {
      jobs: [later],
    } = await engine.emit(team.id);
    await deliverWebhook(engine.deps, later!);
    expect(String(rx.received[1]!.headers['webhook-signature']).split(' ')).toEqual([
      signedWith(rx.received[1]!, third.secret),
    ]);
  });

  it('loses nothing when the worker dies mid-request: the redelivered job attempts again with the same webhook-id once the claim expires', async () => {
    const { team } = await newTeam();
    let hang = true;
    const rx = await receiver(() => (hang ? { hang: true } : { status: 200 }));
    const engine = engineUnderTest();
    const w = await createWebhook(engine.deps, team.id, { endpoint: rx.url, events: ['contact.created'] });
    const {
      jobs: [job],
    } = await engine.emit(team.id);

    const child = spawn(
      resolve('node_modules/.bin/tsx'),
      [resolve('test/support/deliver-in-child.ts'), JSON.stringify(local().env), JSON.stringify(job)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = new Promise((r) => child.once('exit', r));
    await rx.waitFor(1, 25_000);
    child.kill('SIGKILL');
    await exited;
    expect(await deliveryStore.get(engine.deps, team.id, w.id, job!.eventId)).toMatchObject({ status: 'attempting' });

    // The queue redelivers the job while the dead worker's claim still runs: nothing is sent twice at once.
    engine.clock.t = Date.now();
    expect(await deliverWebhook(engine.deps, job!)).toMatchObject({ kind: 'later' });
    expect(rx.received).toHaveLength(1);
    // After the claim expires, the next delivery of the job attempts again.
    hang = false;
    engine.clock.t = Date.now() + DELIVERY.leaseMs + 1_000;
    expect(await deliverWebhook(engine.deps, job!)).toEqual({ kind: 'done' });
    expect(rx.received).toHaveLength(2);
    expect(rx.received[1]!.headers['webhook-id']).toBe(rx.received[0]!.headers['webhook-id']);
    expect(rx.received[1]!.body).toBe(rx.received[0]!.body);
    expectSigned(rx.received[1]!, w.secret);
    expect(await deliveryStore.get(engine.deps, team.id, w.id, job!.eventId)).toMatchObject({ status: 'success' });
  }, 60_000);
});

describe('in-flight places of workers that died', () => {
  it('an endpoint whose 8 places are held waits; places whose lease lapsed (dead workers) are freed and the delivery goes out', async () => {
    const { team } = await newTeam();
    const rx = await receiver();
    const engine = engineUnderTest();
    engine.clock.now = () => Date.now();
    const w = await createWebhook(engine.deps, team.id, { endpoint: rx.url, events: ['contact.created'] });
    // Eight workers took places and died: their leases ran out a minute ago.
    for (let i = 0; i < 8; i++)
      expect(
        await endpointLimits.takeSlot(
          engine.deps,
          w.id,
          DELIVERY.maxInFlight,
          `dead-${i}`,
          DELIVERY.leaseMs,
          Date.now() - 60_000 - DELIVERY.leaseMs,
        ),
      ).toBeDefined();
    expect(
      await endpointLimits.takeSlot(engine.deps, w.id, DELIVERY.maxInFlight, 'live', DELIVERY.leaseMs, Date.now()),
    ).toBeUndefined();
    const {
      jobs: [job],
    } = await engine.emit(team.id);
    expect(await deliverWebhook(engine.deps, job!)).toEqual({ kind: 'done' });
    expect(rx.received).toHaveLength(1);
    // Eight places are free again (the reaped ones and the one the delivery gave back).
    for (let i = 0; i < 8; i++)
      expect(
        await endpointLimits.takeSlot(
          engine.deps,
          w.id,
          DELIVERY.maxInFlight,
          `next-${i}`,
          DELIVERY.leaseMs,
          Date.now(),
        ),
      ).toBeDefined();
    expect(
      await endpointLimits.takeSlot(engine.deps, w.id, DELIVERY.maxInFlight, 'ninth', DELIVERY.leaseMs, Date.now()),
    ).toBeUndefined();
  }, 30_000);
});

describe('per-second limit under load (many workers at once)', () => {
  it("holds the configured rate across 16 concurrent workers, and the default rate is the spec's 50", async () => {
    expect(engineUnderTest().deps.config.WEBHOOK_RATE_PER_SECOND).toBe(50);
    const { team } = await newTeam();
    const rx = await receiver();
    const engine = engineUnderTest({ WEBHOOK_RATE_PER_SECOND: '4' });
    engine.clock.now = () => Date.now();
    await createWebhook(engine.deps, team.id, { endpoint: rx.url, events: ['contact.created'] });
    const jobs: DeliveryJob[] = [];
    for (let i = 0; i < 16; i++) jobs.push(...(await engine.emit(team.id)).jobs);
    // Each worker keeps its job until it is done: a job whose wait for a place ran out comes back (as the worker re-queues it).
    const work = async (job: DeliveryJob) => {
      while ((await deliverWebhook(engine.deps, job)).kind === 'later') await new Promise((r) => setTimeout(r, 100));
    };
    await Promise.all(jobs.map(work));
    expect(rx.received).toHaveLength(16);
    // Places are handed out per second at the sender; measured at the receiver, a request of the
    // previous second may arrive a moment late, so one more than the rate can land in a second.
    expect(rx.maxPerSecond()).toBeLessThanOrEqual(5);
    expect(rx.maxPerSecond()).toBeGreaterThanOrEqual(3);
    expect(new Set(rx.received.map((r) => Math.floor(r.at / 1000))).size).toBeGreaterThanOrEqual(4);
  }, 60_000);
});

describe("owner notices (spec §6 rule 6) through the service's own send pipeline", () => {
  it('emails the team owners (people with the owner role, and addresses the operator added) from the system sender when ten settled deliveries exhausted (once a day), when the endpoint is disabled, and when a delivery waited over six hours', async () => {
    const system = await sendingTeam();
    const stamp = Date.now().toString(36) + Math.random().toString(36).slice(2, 6);
    const owner = await createUser(testDeps(), { email: `owner-${stamp}@customer.example`, name: 'Owner' });
    const member = await createUser(testDeps(), { email: `member-${stamp}@customer.example`, name: 'Member' });
    const team = await createTeamFor(testDeps(), owner, 'Customer');
    await addMember(testDeps(), team, member, 'member');
    await updateTeam(testDeps(), team.id, { ownerEmails: ['cto@customer.example'] });
    const rx = await receiver(() => ({ status: 503 }));
    const engine = engineUnderTest({
      SYSTEM_TEAM_ID: system.team.id,
      SYSTEM_SENDER: `Notices <notices@${system.domain}>`,
    });
    const w = await createWebhook(engine.deps, team.id, { endpoint: rx.url, events: ['contact.created'] });
    const jobs = [];
    for (let i = 0; i < 21; i++) jobs.push(...(await engine.emit(team.id)).jobs);

    // Seven hours after queuing, the first attempt goes out: the backlog notice, once.
    engine.clock.t += 7 * HOUR;
    await deliverWebhook(engine.deps, jobs[20]!, ownerNotices);
    await deliverWebhook(engine.deps, jobs[20]!, ownerNotices);
    expect(rx.received.length).toBeGreaterThanOrEqual(1);

    // Every other delivery exhausts: "failing" at the tenth (not again that day), "disabled" at the twentieth.
    engine.clock.t += DELIVERY.lifetimeMs;
    for (const job of jobs.slice(0, 20)) await deliverWebhook(engine.deps, job, ownerNotices);
    expect((await webhookStore.get(engine.deps, team.id, w.id))!.status).toBe('disabled');

    const sent = (await system.resend.emails.list()).data!.data;
    const subjects = sent.map((e) => e.subject).sort();
    expect(subjects).toEqual([
      `Webhook deliveries waiting over six hours: ${rx.url}`,
      `Webhook endpoint disabled: ${rx.url}`,
      `Webhook endpoint failing: ${rx.url}`,
    ]);
    for (const e of sent) {
      expect(e.from).toBe(`Notices <notices@${system.domain}>`);
      // The member (role member) is not told; the owner and the operator's address are.
      expect([...e.to].sort()).toEqual(['cto@customer.example', `owner-${stamp}@customer.example`]);
    }
  }, 120_000);

  it('only logs when the team has no owners to tell (no owner-role people, no operator addresses)', async () => {
    const { team } = await newTeam();
    const engine = engineUnderTest();
    const w = await createWebhook(engine.deps, team.id, {
      endpoint: 'http://127.0.0.1:9/hook',
      events: ['contact.created'],
    });
    const record = (await webhookStore.get(engine.deps, team.id, w.id))!;
    expect(await notifyOwners(engine.deps, record, 'disabled')).toBe('logged');
    expect(await notifyOwners(engine.deps, record, 'failing')).toBe('logged');
    // The repeating kinds are claimed once a day per endpoint.
    expect(await notifyOwners(engine.deps, record, 'failing')).toBe('skipped');
  });
});
