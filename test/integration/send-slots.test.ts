import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createDeps, type Deps } from '@mailstack/core/runtime/deps';
import { readConfig } from '@mailstack/core/runtime/config';
import { answeredProviderCall, holdProviderWindow, providerWindowBeyond } from '@mailstack/core/table/send-slots';
import { UNANSWERED_MS } from '@mailstack/core/table/call-log';
import {
  type Place,
  placeInstant,
  placeSpacingMs,
  takeBroadcastSlot,
  takeSendSlot,
} from '@mailstack/core/table/send-line';
import { broadcastRate } from '@mailstack/core/domain/broadcasts/plan';
import { prepareEmail } from '@mailstack/core/domain/emails/prepare-email';
import { acceptEmails } from '@mailstack/core/domain/emails/accept-emails';
import { deliverEmail, WAIT_IN_WORKER_MS } from '@mailstack/core/domain/emails/pipeline/deliver-email';
import { callerOfKey } from '@mailstack/core/domain/caller';
import type { SendJob } from '@mailstack/core/domain/emails/email';
import type { QueueMessage } from '@mailstack/core/ports/queue';
import { getItem, updateItem } from '@mailstack/core/table/ops';
import { keys } from '@mailstack/core/table/keys';
import { local, testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';

/** The most instants of `times` within any span of `ms`. */
const busiest = (times: readonly number[], ms: number): number => {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; j < sorted.length; j++) {
    while (sorted[j]! - sorted[i]! >= ms) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
};

describe('the send line', () => {
  const at = (now: number) =>
    createDeps(readConfig({ ...local().env, PROVIDER_RATE_PER_SECOND: '3' }), { clock: { now: () => now } });

  it('reads a place only at the rate it was counted in: a sender at another rate does not push this line into the future', async () => {
    const now = 1_700_000_000_500;
    const region = `test-${randomUUID()}`;
    const fast = createDeps(readConfig({ ...local().env, PROVIDER_RATE_PER_SECOND: '5000' }), {
      clock: { now: () => now },
    });
    for (let i = 0; i < 20; i++) await takeSendSlot(fast, region);
    const place = await takeSendSlot(at(now), region);
    expect(place.at - now).toBeGreaterThanOrEqual(0);
    expect(place.at - now).toBeLessThan(placeSpacingMs(3));
  });

  it('hands out places in order at the rate, never more than the rate within any second, and never waits', async () => {
    const now = 1_700_000_000_500;
    const region = `test-${randomUUID()}`;
    const started = Date.now();
    const first: Place[] = [];
    for (let i = 0; i < 10; i++) first.push(await takeSendSlot(at(now), region));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(first.map((p) => p.place - first[0]!.place)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(first[0]!.at).toBeGreaterThanOrEqual(now);
    expect(first[9]!.at - now).toBeGreaterThanOrEqual(3_000);

    // Concurrent senders a second later: the booked places hold, nobody jumps the line, no place
    // is given twice, and no second (calendar or sliding) holds more than the rate.
    const later = await Promise.all(Array.from({ length: 12 }, () => takeSendSlot(at(now + 1000), region)));
    const places = [...first, ...later].map((p) => p.place).sort((a, b) => a - b);
    expect(places).toEqual(Array.from({ length: 22 }, (_, i) => first[0]!.place + i));
    expect(
      busiest(
        [...first, ...later].map((p) => p.at),
        1000,
      ),
    ).toBe(3);
  });

  it('restarts at the current instant once the line has emptied', async () => {
    const now = 1_700_000_100_200;
    const region = `test-${randomUUID()}`;
    for (let i = 0; i < 5; i++) await takeSendSlot(at(now), region);
    const idle = await takeSendSlot(at(now + 60_000), region);
    expect(idle.at - (now + 60_000)).toBeGreaterThanOrEqual(0);
    expect(idle.at - (now + 60_000)).toBeLessThan(placeSpacingMs(3));
  });

  it('takes each place in one write while the line is as this process last saw it, ahead of now (a backlog) or fallen behind (sends at a broadcast pace)', async () => {
    const now = 1_700_000_200_200;
    const region = `test-${randomUUID()}`;
    const deps = at(now);
    const writes = async (d: Deps, take: () => Promise<Place | undefined>) => {
      const before = d.counters.ddbWrites;
      const place = await take();
      return { writes: d.counters.ddbWrites - before, place: place?.place };
    };
    const first = await takeSendSlot(deps, region);
    // Ahead: places taken at one instant follow one another.
    for (let i = 1; i <= 3; i++)
      expect(await writes(deps, () => takeSendSlot(deps, region))).toEqual({ writes: 1, place: first.place + i });
    // Behind: a minute later the line restarts at the place due then, one write for each
    // transactional or broadcast send (and the broadcast's count of its second).
    const later = at(now + 60_000);
    const restarted = await writes(later, () => takeSendSlot(later, region));
    expect(restarted.writes).toBe(1);
    expect(placeInstant(restarted.place!, 3) - (now + 60_000)).toBeLessThan(placeSpacingMs(3));
    const again = at(now + 120_000);
    expect(await writes(again, () => takeBroadcastSlot(again, region, 2))).toMatchObject({ writes: 2 });
  });

  it('gives senders asking together their places in a row in one write, and those asking while it is in flight theirs in one more, ahead of now or fallen behind (a backlog costs the line a write per round trip, not per email)', async () => {
    const now = 1_700_000_400_300;
    const region = `test-${randomUUID()}`;
    const deps = at(now);
    const first = await takeSendSlot(deps, region);
    let before = deps.counters.ddbWrites;
    const together = Array.from({ length: 10 }, () => takeSendSlot(deps, region));
    // The first ten's write is now in flight: the next ten wait for it and take theirs after.
    await Promise.resolve();
    const after = Array.from({ length: 10 }, () => takeSendSlot(deps, region));
    const places = (await Promise.all([...together, ...after])).map((p) => p.place);
    expect(places).toEqual(Array.from({ length: 20 }, (_, i) => first.place + 1 + i));
    expect(deps.counters.ddbWrites - before).toBe(2);

    // A minute later the line has fallen behind: five together restart it at the place due then, in one write.
    const later = at(now + 60_000);
    before = later.counters.ddbWrites;
    const restarted = (await Promise.all(Array.from({ length: 5 }, () => takeSendSlot(later, region)))).map(
      (p) => p.place,
    );
    expect(restarted).toEqual(restarted.map((_, i) => restarted[0]! + i));
    expect(placeInstant(restarted[0]!, 3) - (now + 60_000)).toBeGreaterThanOrEqual(0);
    expect(placeInstant(restarted[0]!, 3) - (now + 60_000)).toBeLessThan(placeSpacingMs(3));
    expect(later.counters.ddbWrites - before).toBe(1);
    // And the line goes on after them.
    expect((await takeSendSlot(later, region)).place).toBe(restarted.at(-1)! + 1);
  });

  it("gives a second's broadcast sends arriving together one line write each when the line has fallen behind: one restarts it, the others take the places after", async () => {
    const now = 1_700_000_300_050;
    const region = `test-${randomUUID()}`;
    const config = readConfig({ ...local().env, PROVIDER_RATE_PER_SECOND: '14' });
    await takeSendSlot(createDeps(config, { clock: { now: () => now - 60_000 } }), region);
    const deps = createDeps(config, { clock: { now: () => now } });
    const share = broadcastRate(14);
    const before = deps.counters.ddbWrites;
    const places = await Promise.all(Array.from({ length: share }, () => takeBroadcastSlot(deps, region, share)));
    const taken = places.map((p) => p!.place).sort((a, b) => a - b);
    expect(taken).toEqual(taken.map((_, i) => taken[0]! + i));
    // The share's counter and the line: two writes a send.
    expect(deps.counters.ddbWrites - before).toBe(2 * share);
  });
});

describe('the call log', () => {
  it('never plans more calls than the rate within any second, however late the calls come, and gives back a plan that could not go', async () => {
    const base = testDeps();
    const now = Date.now();
    const deps = createDeps({ ...base.config, PROVIDER_RATE_PER_SECOND: 3 }, { clock: { now: () => now } });
    const region = `test-${randomUUID()}`;
    // Ten calls whose places are all due (late jobs), planned at once.
    const holds = await Promise.all(Array.from({ length: 10 }, (_, i) => holdProviderWindow(deps, region, i, 10_000)));
    const planned = holds.map((h) => {
      expect(h.kind).toBe('held');
      return h.at;
    });
    expect(Math.max(...planned) - now).toBeGreaterThanOrEqual(3 * 1000);
    expect(busiest(planned, 1000 + UNANSWERED_MS)).toBe(3);
    // Past the horizon: not planned, a later instant to come back for.
    expect((await holdProviderWindow(deps, region, 10, 1_000)).kind).toBe('later');
    // A call that missed its instant gives it back: the next plan takes it.
    const missed = planned.sort((a, b) => a - b)[0]!;
    const again = await holdProviderWindow(deps, region, 11, 10_000, missed);
    expect(again).toEqual({ kind: 'held', at: missed });
  });

  it('plans the call a second after an answered one that much sooner, and writes the answer into the log for every worker', async () => {
    const base = testDeps();
    const now = Date.now();
    const deps = createDeps({ ...base.config, PROVIDER_RATE_PER_SECOND: 2 }, { clock: { now: () => now } });
    const region = `answered-${randomUUID()}`;
    const first = await holdProviderWindow(deps, region, 0, 10_000);
    const second = await holdProviderWindow(deps, region, 1, 10_000);
    if (first.kind !== 'held' || second.kind !== 'held') throw new Error('expected two plans');
    // Unanswered, the third call would wait a second past the first call's latest bound.
    expect(providerWindowBeyond(deps, region, 2, 0)).toBe(first.at + UNANSWERED_MS + 1000);
    // The provider answered the first call 3 ms after its instant: it saw it by then.
    answeredProviderCall(deps, region, first.at, first.at + 3);
    const third = await holdProviderWindow(deps, region, 2, 10_000);
    expect(third.kind).toBe('held');
    expect(third.at - first.at).toBeLessThan(1000 + UNANSWERED_MS);
    expect(third.at - first.at).toBeGreaterThanOrEqual(1003);
    // The answer went into the log with that plan: another worker plans from it.
    const stored = (await getItem(deps, keys.pacing.calls(region, 2)))!.calls as [number, number][];
    const bounds = stored.map(([at, by]) => by - at).sort((a, b) => a - b);
    expect(bounds).toHaveLength(3);
    expect(bounds[0]).toBeLessThan(UNANSWERED_MS);
    expect(bounds.slice(1)).toEqual([UNANSWERED_MS, UNANSWERED_MS]);
  });
});

describe('a job behind the calls', () => {
  it('comes back at its turn in the line when the calls run behind it, one place after another, and at once when they have caught up', async () => {
    const base = testDeps();
    const now = Date.now();
    const at = (ms: number) =>
      createDeps({ ...base.config, PROVIDER_RATE_PER_SECOND: 1 }, { clock: { now: () => ms } });
    const region = `turn-${randomUUID()}`;
    // Four late jobs (places long due) planned one a span apart: the calls run seconds behind the line.
    const planned: number[] = [];
    for (let place = 0; place < 4; place++) {
      const hold = await holdProviderWindow(at(now), region, place, 10_000);
      if (hold.kind !== 'held') throw new Error('expected a plan');
      planned.push(hold.at);
    }
    const spacing = placeSpacingMs(1);
    // Place 9 waits for places 4 to 8 after the furthest planned (3), not for the first free instant.
    expect(providerWindowBeyond(at(now), region, 9, 2_000)).toBe(planned[3]! + 5 * spacing);
    // Place 4 is next: the first free instant, a span after place 3's call leaves the window.
    expect(providerWindowBeyond(at(now), region, 4, 2_000)).toBe(planned[3]! + UNANSWERED_MS + 1000);
    // Once every planned call is past, nothing is ahead of it: it goes at once.
    expect(providerWindowBeyond(at(planned[3]! + 1), region, 9, 2_000)).toBeUndefined();
  });
});

/**
 * One accepted email in a region of its own, for a send line at `rate` on `now`: its send job is
 * kept here (no worker takes it meanwhile), and the provider calls made are recorded in `sent`.
 */
const oneWaitingEmail = async (rate: number, now: () => number) => {
  const t = await sendingTeam();
  const sent: string[] = [];
  const deps: Deps = createDeps(
    { ...testDeps().config, PROVIDER_RATE_PER_SECOND: rate },
    {
      clock: { now },
      queue: { send: async () => undefined },
      mail: {
        send: async (message) => {
          sent.push(message.tags.email_id!);
          return { providerMessageId: `waiting-${randomUUID()}` };
        },
      },
    },
  );
  const caller = callerOfKey(t.key, t.team);
  const region = `waiting-${randomUUID()}`;
  const prepared = await prepareEmail(deps, caller, {
    from: t.from,
    to: 'delivered@resend.dev',
    subject: 'waiting',
    text: 'x',
  });
  const [e] = await acceptEmails(deps, caller, [{ ...prepared, domain: { ...prepared.domain, region } }]);
  return { deps, sent, region, key: keys.email.item(t.team.id, e!.id), job: { teamId: t.team.id, emailId: e!.id } };
};

describe('a send waiting for its place', () => {
  it('books a place further ahead than it waits in the worker, comes back before it and sends then without asking again; its due time moves to that place only when the sweeper could take it for lost before then', async () => {
    const t = await sendingTeam();
    const base = testDeps();
    // Half a second before one of the line's places, so each call goes at its place's instant
    // (one due sooner than a call can be planned would push the calls after it, and the turns).
    const clock = { ms: Math.ceil(Date.now() / placeSpacingMs(1)) * placeSpacingMs(1) - 500 };
    const queued: SendJob[] = [];
    const sent: string[] = [];
    const deps: Deps = createDeps(
      { ...base.config, PROVIDER_RATE_PER_SECOND: 1 },
      {
        clock: { now: () => clock.ms },
        queue: {
          send: async (_url: string, messages: readonly QueueMessage[]) => {
            queued.push(...messages.map((m) => m.body as SendJob));
          },
        },
        mail: {
          send: async (message) => {
            sent.push(message.tags.email_id!);
            return { providerMessageId: `line-${randomUUID()}` };
          },
        },
      },
    );
    const caller = callerOfKey(t.key, t.team);
    // The team's domain in a region of its own: this test's line only.
    const prepared = await prepareEmail(deps, caller, {
      from: t.from,
      to: 'delivered@resend.dev',
      subject: 'line',
      text: 'x',
    });
    const region = `line-${randomUUID()}`;
    const emails = await acceptEmails(
      deps,
      caller,
      [0, 1, 2, 3, 4].map(() => ({ ...prepared, domain: { ...prepared.domain, region } })),
    );
    queued.splice(0);

    // At one place a second, the first places are within the worker's wait (this clock does not
    // wait: the sends go at once); a place further ahead goes back on the queue, booked.
    let waiting: Awaited<ReturnType<typeof deliverEmail>> | undefined;
    for (const e of emails) {
      const outcome = await deliverEmail(deps, { teamId: t.team.id, emailId: e!.id });
      if (outcome.kind === 'retry') {
        waiting = outcome;
        break;
      }
      expect(outcome).toEqual({ kind: 'done' });
    }
    if (waiting?.kind !== 'retry') throw new Error('expected a booked place');
    const booked = waiting.job;
    expect(booked.place).toBeTypeOf('number');
    const due = placeInstant(booked.place!, 1);
    expect(due - clock.ms).toBeGreaterThan(WAIT_IN_WORKER_MS);
    // It comes back before its place, never after (the queue's delays are whole seconds).
    expect(clock.ms + waiting.delaySeconds * 1000).toBeLessThanOrEqual(due);
    expect(sent).not.toContain(booked.emailId);
    // Back long before the sweeper could take it for lost: nothing was written to it.
    const accepted = emails.find((e) => e!.id === booked.emailId)!;
    const item = await getItem(deps, keys.email.item(t.team.id, booked.emailId));
    expect(item).toMatchObject({ status: 'queued', attempts: 0 });
    expect(keys.email.sendDueOf(item!)).toBe(Date.parse(accepted.created_at));

    // Back early: it waits again, booking nothing new.
    expect(await deliverEmail(deps, booked)).toEqual({
      kind: 'retry',
      delaySeconds: waiting.delaySeconds,
      job: booked,
    });
    // Back within the worker's wait of its place, it sends, and the next place in the line is still the one after it.
    clock.ms = due - 500;
    expect(await deliverEmail(deps, booked)).toEqual({ kind: 'done' });
    expect(sent).toContain(booked.emailId);
    expect((await takeSendSlot(deps, region)).place).toBe(booked.place! + 1);
    // A job again for the email already sent (the queue delivers at least once) takes no place.
    expect(await deliverEmail(deps, { teamId: t.team.id, emailId: booked.emailId })).toEqual({ kind: 'done' });
    expect((await takeSendSlot(deps, region)).place).toBe(booked.place! + 2);

    // A place further ahead than half the sweeper's grace (the line a minute and more ahead): the
    // email's due time moves to it, so the sweeper leaves it alone until its job is back.
    const halfGrace = (deps.config.SWEEP_AFTER_SECONDS * 1000) / 2;
    const ahead = (await takeSendSlot(deps, region)).place + halfGrace / placeSpacingMs(1);
    await updateItem(deps, keys.pacing.line(region, 1), { set: { next: Math.ceil(ahead) } });
    const last = emails.at(-1)!;
    const far = await deliverEmail(deps, { teamId: t.team.id, emailId: last.id });
    if (far.kind !== 'retry') throw new Error('expected a booked place');
    const farDue = placeInstant(far.job.place!, 1);
    expect(farDue - Date.parse(last.created_at)).toBeGreaterThan(halfGrace);
    const farItem = await getItem(deps, keys.email.item(t.team.id, last.id));
    expect(farItem).toMatchObject({ status: 'queued', attempts: 0 });
    expect(keys.email.sendDueOf(farItem!)).toBe(farDue);
    expect(sent).not.toContain(last.id);
  });

  it('goes back without claiming its email when the call log this worker last wrote has no room within its wait, and moves its due time only when the sweeper would soon take it for lost', async () => {
    const now = Date.now();
    const { deps, sent, region, key, job: unplaced } = await oneWaitingEmail(1, () => now);
    // Late jobs ahead of it planned the next five seconds (one call a second).
    for (let i = 0; i < 5; i++) expect((await holdProviderWindow(deps, region, i, 10_000)).kind).toBe('held');
    const before = await getItem(deps, key);
    const job: SendJob = { ...unplaced, place: 5 };
    const outcome = await deliverEmail(deps, job);
    expect(outcome).toMatchObject({ kind: 'retry', job });
    // Back when the log has room (whole seconds, before that instant), and nothing was written.
    expect(outcome.kind === 'retry' && outcome.delaySeconds).toBeGreaterThanOrEqual(2);
    expect(await getItem(deps, key)).toEqual(before);
    expect(sent).toEqual([]);

    // Due long enough that the sweeper would soon queue it again: its due time moves to when it comes back, unclaimed.
    const stale = now - (deps.config.SWEEP_AFTER_SECONDS / 2) * 1000 - 1_000;
    await updateItem(deps, key, { set: keys.email.sendDue(job.emailId, new Date(stale).toISOString()) });
    expect(await deliverEmail(deps, job)).toEqual(outcome);
    const moved = await getItem(deps, key);
    expect(moved).toMatchObject({ status: 'queued', attempts: 0 });
    expect(keys.email.sendDueOf(moved!)).toBeGreaterThanOrEqual(now + WAIT_IN_WORKER_MS);
    expect(sent).toEqual([]);
  });

  it('as a broadcast send turned away by its share of the second, comes back in a second without claiming its email, and moves its due time only when the sweeper would soon take it for lost', async () => {
    const clock = { ms: Date.now() };
    const { deps, sent, region, key, job } = await oneWaitingEmail(10, () => clock.ms);
    // A broadcast's recipient (of a broadcast not in the table: never canceled), due now.
    await updateItem(deps, key, {
      set: { broadcast_id: randomUUID(), contact_id: randomUUID(), slot_at: new Date(clock.ms).toISOString() },
    });
    const share = broadcastRate(10);
    const fill = async () => {
      for (let i = 0; i < share; i++) expect(await takeBroadcastSlot(deps, region, share)).toBeDefined();
    };

    // The share of this second is taken: back in a second, the email as it was.
    await fill();
    const before = await getItem(deps, key);
    expect(await deliverEmail(deps, job)).toEqual({ kind: 'retry', delaySeconds: 1, job });
    expect(await getItem(deps, key)).toEqual(before);

    // Turned away again past half the sweeper's grace: its due time moves a second on, unclaimed.
    clock.ms += (deps.config.SWEEP_AFTER_SECONDS / 2) * 1000 + 1_000;
    await fill();
    expect(await deliverEmail(deps, job)).toEqual({ kind: 'retry', delaySeconds: 1, job });
    expect(await getItem(deps, key)).toMatchObject({
      status: 'queued',
      attempts: 0,
      gsi3sk: `${new Date(clock.ms + 1000).toISOString()}#${job.emailId}`,
    });
    expect(sent).toEqual([]);

    // The next second has room: it sends.
    clock.ms += 1000;
    expect(await deliverEmail(deps, job)).toEqual({ kind: 'done' });
    expect(sent).toEqual([job.emailId]);
    expect(await getItem(deps, key)).toMatchObject({ status: 'sent', attempts: 1 });
  });
});
