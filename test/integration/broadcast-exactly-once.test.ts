import { describe, expect, it } from 'vitest';
import { createDeps, type Deps } from '@mailstack/core/runtime/deps';
import { readConfig } from '@mailstack/core/runtime/config';
import { sendBroadcast } from '@mailstack/core/domain/broadcasts/send-broadcast';
import { cancelBroadcast } from '@mailstack/core/domain/broadcasts/cancel-broadcast';
import { type FanOutJob, fanOutBroadcast } from '@mailstack/core/domain/broadcasts/fan-out';
import { deliverEmail } from '@mailstack/core/domain/emails/pipeline/deliver-email';
import {
  receiveProviderNotification,
  type SnsNotification,
} from '@mailstack/core/domain/emails/pipeline/receive-provider-events';
import type { SendJob } from '@mailstack/core/domain/emails/email';
import { startSesStandIn } from '../../lib/local/stand-ins/ses.ts';
import { freePort } from '../../lib/local/ports.ts';
import { call, local } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { loadSegmentContacts } from '../support/audience.ts';

class Crash extends Error {}

/** Idle this long with nothing queued or running, a broadcast that is not finished never will be (claim lease + grace + a sweep). */
const STALL_MS = 300_000;

/** Each reachable contact plus 30 of each kind the broadcast must skip. */
const SKIPPED_EACH = 30;
/**
 * The audience of the exactly-once run. `npm test` uses 2,000 (DynamoDB Local on a shared
 * 2-core machine sends about 10 a second through this path); BROADCAST_TEST_CONTACTS=10000 runs
 * the acceptance size.
 */
const CONTACTS = Number(process.env.BROADCAST_TEST_CONTACTS ?? 2_000);

/**
 * The service's world for one broadcast, with this test playing the queues and workers so process
 * deaths can be injected: a provider stand-in of its own at a higher rate (the shared one keeps
 * the default 14/s), captured queue messages (honouring their delay), and crash points.
 */
const world = async (crash: {
  fanOutBeforeQueue?: number;
  fanOutBeforeCheckpoint?: number;
  afterProvider?: number[];
}) => {
  const [sesPort, inboxPort] = [await freePort(), await freePort()];
  const ses = await startSesStandIn({ port: sesPort, inboxPort, ratePerSecond: 5000, events: 'send' });
  const base = createDeps(
    readConfig({ ...local().env, SES_ENDPOINT: `http://127.0.0.1:${sesPort}`, PROVIDER_RATE_PER_SECOND: '5000' }),
  );
  // The provider's events reach the service as through its queue: applied here, again on failure (as SQS redelivers).
  ses.setEventsSink(async (notification) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await receiveProviderNotification(base, notification as unknown as SnsNotification);
        return;
      } catch (error) {
        if (attempt >= 20) throw error;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  });
  const fanOut: FanOutJob[] = [];
  const sends: { job: SendJob; at: number }[] = [];
  let queuedPages = 0;
  let checkpoints = 0;
  let providerSends = 0;
  const timing = { deliver: 0, mail: 0, n: 0 };
  const deps: Deps = createDeps(base.config, {
    queue: {
      send: async (url, messages) => {
        if (url === base.config.FANOUT_QUEUE_URL) fanOut.push(...messages.map((m) => m.body as FanOutJob));
        else if (url === base.config.BROADCAST_QUEUE_URL) {
          if (++queuedPages === crash.fanOutBeforeQueue)
            throw new Crash('the fan-out died after writing a page, before queuing it');
          sends.push(
            ...messages.map((m) => ({ job: m.body as SendJob, at: Date.now() + (m.delaySeconds ?? 0) * 1000 })),
          );
        }
      },
    },
    scheduler: {
      schedule: async (r) => {
        fanOut.push(r.body as FanOutJob);
      },
      cancel: async () => undefined,
    },
    tableStore: {
      ...base.tableStore,
      put: async (input) => {
        if (input.Item?.type === 'broadcast_checkpoint' && ++checkpoints === crash.fanOutBeforeCheckpoint)
          throw new Crash('the fan-out died after queuing a page, before its checkpoint');
        return base.tableStore.put(input);
      },
    },
    mail: {
      send: async (message) => {
        const t0 = Date.now();
        const out = await base.mail.send(message);
        timing.mail += Date.now() - t0;
        if (crash.afterProvider?.includes(++providerSends))
          throw new Crash('died after the provider accepted, before recording');
        return out;
      },
    },
  });
  /**
   * Plays the fan-out worker and the send workers side by side until `until` holds with nothing
   * left to do; a job that died comes back (SQS redelivery), a retry after its delay.
   */
  const work = async (until: () => Promise<boolean>, timeoutMs: number, tick?: () => Promise<void>) => {
    const deadline = Date.now() + timeoutMs;
    let fanning = false;
    let steps = 0;
    let finished = false;
    let stalled = false;
    const fanOutLoop = (async () => {
      while (!finished && !stalled && Date.now() < deadline) {
        const step = fanOut.shift();
        if (!step) {
          await new Promise((r) => setTimeout(r, 50));
          continue;
        }
        fanning = true;
        // A step that dies (an injected crash, or the local engine refusing under load) comes back,
        // as SQS redelivers a message whose worker failed: each delivery of it, the twin's too.
        const run = () =>
          fanOutBroadcast(deps, step).catch(() => {
            fanOut.push(step);
          });
        // The step redelivered after the first death comes twice, side by side (SQS delivers at least once).
        const twin = ++steps === 2 ? run() : undefined;
        await run();
        await twin;
        fanning = false;
      }
    })();
    const tickLoop = (async () => {
      while (tick && !finished && !stalled && Date.now() < deadline) {
        await tick();
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    const sendLoop = (async () => {
      let running = 0;
      let idleSince: number | undefined;
      while (!finished && !stalled && Date.now() < deadline) {
        const at = sends.findIndex((s) => s.at <= Date.now());
        if (at === -1 || running >= 48) {
          if (at === -1 && running === 0 && !fanning && fanOut.length === 0 && sends.length === 0) {
            if (await until()) {
              finished = true;
              return;
            }
            // Nothing left to run and not finished: past the claim lease, grace and a sweep, it never will.
            idleSince ??= Date.now();
            if (Date.now() - idleSince > STALL_MS) {
              stalled = true;
              return;
            }
          } else idleSince = undefined;
          await new Promise((r) => setTimeout(r, at === -1 ? 100 : 5));
          continue;
        }
        const [{ job }] = sends.splice(at, 1) as [{ job: SendJob; at: number }];
        running++;
        const t0 = Date.now();
        void deliverEmail(deps, job)
          .finally(() => {
            timing.deliver += Date.now() - t0;
            timing.n++;
            if (process.env.DEBUG_BROADCAST && timing.n % 200 === 0)
              console.log(
                `avg deliver ${timing.deliver / timing.n} ms, mail ${timing.mail / timing.n} ms, running ${running}`,
              );
          })
          .then(
            (outcome) => {
              if (outcome.kind === 'retry') sends.push({ job, at: Date.now() + outcome.delaySeconds * 1000 });
            },
            // A job that fails (an injected crash, or the local engine refusing under load) comes back, as SQS redelivers it.
            () => {
              sends.push({ job, at: Date.now() + 500 });
            },
          )
          .finally(() => {
            running--;
          });
      }
    })();
    await Promise.all([fanOutLoop, sendLoop, tickLoop]);
    if (!finished)
      throw new Error(
        `the broadcast ${stalled ? 'stalled with nothing left to run' : 'did not finish in time'} (${providerSends} provider sends, ${sends.length} send jobs, ${fanOut.length} fan-out steps left)`,
      );
  };
  /**
   * Every message the provider accepted: this world's stand-in, plus the shared host's, whose
   * sweeper re-queues broadcast mail that sat past its slot to the host's own workers.
   */
  const inbox = async () => {
    const read = async (url: string) =>
      ((await (await fetch(`${url}/store`)).json()) as { emails: { destination: { to: string[] } }[] }).emails;
    return [...(await read(`http://127.0.0.1:${inboxPort}`)), ...(await read(local().inboxUrl))];
  };
  return {
    deps,
    work,
    inbox,
    verify: (domain: string) => ses.verifyIdentity(domain),
    stop: () => ses.stop(),
    providerSends: () => providerSends,
  };
};

/**
 * A team with a segment of `reachable` contacts (loaded straight into the table) plus
 * unsubscribed, suppressed and opted-out ones made through the API.
 */
const audience = async (reachable: number) => {
  const t = await sendingTeam();
  const segment = (await t.resend.segments.create({ name: 'Everyone' })).data!.id;
  const topic = (await t.resend.topics.create({ name: 'News', defaultSubscription: 'opt_in' } as any)).data!.id;
  const tag = t.team.id.slice(-12);
  const eligible = Array.from({ length: reachable }, (_, i) => `r${i}-${tag}@example.com`);
  await loadSegmentContacts(
    t.team.id,
    segment,
    eligible.map((email, i) => ({ email, first_name: `R${i}` })),
  );
  const skipped = [
    ...Array.from({ length: SKIPPED_EACH }, (_, i) => ({
      email: `unsub${i}-${tag}@example.com`,
      unsubscribed: true,
      segments: [{ id: segment }],
    })),
    ...Array.from({ length: SKIPPED_EACH }, (_, i) => ({
      email: `supp${i}-${tag}@example.com`,
      segments: [{ id: segment }],
    })),
    ...Array.from({ length: SKIPPED_EACH }, (_, i) => ({
      email: `out${i}-${tag}@example.com`,
      segments: [{ id: segment }],
      topics: [{ id: topic, subscription: 'opt_out' }],
    })),
  ];
  // In small batches: well inside the local host's 30-second handler deadline on a busy machine.
  for (let i = 0; i < skipped.length; i += SKIPPED_EACH) {
    const made = await call('POST', '/contacts/batch', { key: t.secret, body: skipped.slice(i, i + SKIPPED_EACH) });
    expect(made.status, made.text).toBe(200);
  }
  const supp = await call('POST', '/suppressions/batch/add', {
    key: t.secret,
    body: { emails: Array.from({ length: SKIPPED_EACH }, (_, i) => `supp${i}-${tag}@example.com`) },
  });
  expect(supp.status, supp.text).toBe(201);
  return { t, segment, topic, eligible, tag };
};

describe('a broadcast reaches each eligible contact exactly once', () => {
  it(`${CONTACTS.toLocaleString('en')} contacts, with the fan-out and sends dying mid-way`, async () => {
    // Prepare
    const { t, segment, topic, eligible, tag } = await audience(CONTACTS - 3 * SKIPPED_EACH);
    const pages = Math.ceil(CONTACTS / 100);
    const w = await world({
      fanOutBeforeQueue: Math.ceil(pages / 4),
      fanOutBeforeCheckpoint: Math.ceil(pages / 2),
      afterProvider: [5, Math.floor(CONTACTS / 3), Math.floor((CONTACTS * 2) / 3)],
    });
    // The world's SES stand-in is the same account: the team's domain is verified there too.
    w.verify(t.domain);
    try {
      const made = await t.resend.broadcasts.create({
        segmentId: segment,
        topicId: topic,
        from: t.from,
        subject: 'Hello {{{FIRST_NAME|there}}}',
        text: 'Hi {{{FIRST_NAME}}} {{{UNSUBSCRIBE_URL}}}',
      });

      // Act
      const answer = await sendBroadcast(w.deps, t.team, made.data!.id, undefined);
      await w.work(
        async () => ((await t.resend.broadcasts.get(made.data!.id)).data as any)?.status === 'sent',
        1_700_000,
      );

      // Assess: the inbox, counted by recipient.
      expect(answer.finishes_at).toEqual(expect.any(String));
      const received = new Map<string, number>();
      for (const m of await w.inbox())
        for (const to of m.destination.to)
          if (to.endsWith(`-${tag}@example.com`)) received.set(to, (received.get(to) ?? 0) + 1);
      const missing = eligible.filter((e) => !received.has(e));
      if (missing.length > 0) {
        const { listRecipients } = await import('@mailstack/core/domain/broadcasts/recipients');
        const rows = (await listRecipients(w.deps, t.team.id, made.data!.id, { type: 'sent', limit: 100 })).items
          .length;
        const { getEmail } = await import('@mailstack/core/domain/emails/get-email');
        const { recipientEmailId } = await import('@mailstack/core/domain/broadcasts/fan-out');
        const { findContact } = await import('@mailstack/core/domain/contacts/contact');
        const states = await Promise.all(
          missing.slice(0, 5).map(async (m) => {
            const c = await findContact(w.deps, t.team.id, m);
            return c
              ? getEmail(w.deps, t.team.id, recipientEmailId(made.data!.id, c.id)).then(
                  (e) => `${m}: ${e.status} ${e.failure_reason ?? ''}`,
                  (e) => `${m}: ${(e as Error).message}`,
                )
              : `${m}: no contact`;
          }),
        );
        throw new Error(
          `${missing.length} eligible contacts got nothing (provider sends ${w.providerSends()}, sent rows ${rows}): ${states.join('; ')}`,
        );
      }
      expect(received.size).toBe(eligible.length);
      expect(
        [...received].filter(([, n]) => n !== 1),
        'contacts mailed more than once',
      ).toEqual([]);
      for (const e of eligible) expect(received.get(e)).toBe(1);
      expect([...received.keys()].some((a) => /^(unsub|supp|out)\d+-/.test(a))).toBe(false);
      expect(w.providerSends()).toBeLessThanOrEqual(eligible.length);
      const read = (await t.resend.broadcasts.get(made.data!.id)).data as any;
      expect(read).toMatchObject({
        status: 'sent',
        sent_count: eligible.length,
        skipped: { unsubscribed: SKIPPED_EACH, suppressed: SKIPPED_EACH, opted_out: SKIPPED_EACH },
      });
    } finally {
      await w.stop();
    }
  }, 1_800_000);

  it('canceled mid-way: sent_count + canceled_remaining equals the eligible count, and nothing more is sent', async () => {
    // Prepare
    const { t, segment, eligible, tag } = await audience(1_500);
    const w = await world({});
    // The world's SES stand-in is the same account: the team's domain is verified there too.
    w.verify(t.domain);
    try {
      const made = await t.resend.broadcasts.create({
        segmentId: segment,
        from: t.from,
        subject: 'Cancel me',
        text: 'x',
      });
      await sendBroadcast(w.deps, t.team, made.data!.id, undefined);

      // Act: let a few hundred go, then cancel.
      let canceled = false;
      await w.work(
        async () => canceled,
        180_000,
        async () => {
          if (canceled) return;
          const b = (await t.resend.broadcasts.get(made.data!.id)).data as any;
          if (b.sent_count >= 300) {
            await cancelBroadcast(w.deps, t.team.id, made.data!.id);
            canceled = true;
          }
        },
      );

      // Assess
      const read = (await t.resend.broadcasts.get(made.data!.id)).data as any;
      expect(read.status).toBe('canceled');
      // Without a topic, the contacts opted out of one topic are eligible too.
      expect(read.sent_count + read.canceled_remaining).toBe(eligible.length + SKIPPED_EACH);
      expect(read.sent_count).toBeGreaterThanOrEqual(300);
      expect(read.canceled_remaining).toBeGreaterThan(0);
      expect((await w.inbox()).filter((m) => m.destination.to.some((to) => to.includes(tag))).length).toBe(
        read.sent_count,
      );
    } finally {
      await w.stop();
    }
  }, 240_000);
});
