import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createDeps, type Deps } from '@mailstack/core/runtime/deps';
import { readConfig } from '@mailstack/core/runtime/config';
import { takeSendSlot } from '@mailstack/core/table/send-slots';
import { prepareEmail } from '@mailstack/core/domain/emails/prepare-email';
import { acceptEmails } from '@mailstack/core/domain/emails/accept-emails';
import { deliverEmail } from '@mailstack/core/domain/emails/pipeline/deliver-email';
import { callerOfKey } from '@mailstack/core/domain/caller';
import type { SendJob } from '@mailstack/core/domain/emails/email';
import type { QueueMessage } from '@mailstack/core/ports/queue';
import { getItem } from '@mailstack/core/table/ops';
import { keys } from '@mailstack/core/table/keys';
import { local, testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';

describe('the send line', () => {
  const at = (now: number) => createDeps(readConfig({ ...local().env, PROVIDER_RATE_PER_SECOND: '3' }), { clock: { now: () => now } });

  it('reads a slot only at the rate it was counted in: a sender at another rate does not push this line into the future', async () => {
    const now = 1_700_000_000_500;
    const region = `test-${randomUUID()}`;
    const fast = createDeps(readConfig({ ...local().env, PROVIDER_RATE_PER_SECOND: '5000' }), { clock: { now: () => now } });
    for (let i = 0; i < 20; i++) expect((await takeSendSlot(fast, region)).granted).toBe(true);
    expect(await takeSendSlot(at(now), region)).toEqual({ granted: true, second: Math.floor(now / 1000), retryInSeconds: 0 });
  });

  it('grants the provider rate per second and region, books every later place in order, and never waits', async () => {
    const now = 1_700_000_000_500;
    const second = Math.floor(now / 1000);
    const region = `test-${randomUUID()}`;
    const started = Date.now();
    const first = [];
    for (let i = 0; i < 10; i++) first.push(await takeSendSlot(at(now), region));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(first.filter((o) => o.granted)).toHaveLength(3);
    expect(first.map((o) => o.second - second)).toEqual([0, 0, 0, 1, 1, 1, 2, 2, 2, 3]);
    expect(first.slice(3).map((o) => o.retryInSeconds)).toEqual([1, 1, 1, 2, 2, 2, 3]);

    // Concurrent senders a second later: the booked places hold, nobody jumps the line, and no
    // second holds more than the rate.
    const later = await Promise.all(Array.from({ length: 12 }, () => takeSendSlot(at(now + 1000), region)));
    expect(later.filter((o) => o.granted)).toEqual([]);
    const perSecond = new Map<number, number>();
    for (const o of [...first, ...later]) perSecond.set(o.second, (perSecond.get(o.second) ?? 0) + 1);
    expect([...perSecond.entries()].sort((a, b) => a[0] - b[0])).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((k) => [second + k, k < 7 ? 3 : 1]));
  });

  it('restarts at the current second once the line has emptied', async () => {
    const now = 1_700_000_100_200;
    const region = `test-${randomUUID()}`;
    for (let i = 0; i < 5; i++) await takeSendSlot(at(now), region);
    const idle = await takeSendSlot(at(now + 60_000), region);
    expect(idle).toEqual({ granted: true, second: Math.floor((now + 60_000) / 1000), retryInSeconds: 0 });
  });
});

describe('a send waiting for its place', () => {
  it('books a later place when its second is full, comes back then and sends without asking again; its due time moves to that place, so the sweeper leaves it alone until then', async () => {
    const t = await sendingTeam();
    const base = testDeps();
    const clock = { ms: Date.now() };
    const queued: SendJob[] = [];
    const sent: string[] = [];
    const deps: Deps = createDeps({ ...base.config, PROVIDER_RATE_PER_SECOND: 1 }, {
      clock: { now: () => clock.ms },
      queue: { send: async (_url: string, messages: readonly QueueMessage[]) => { queued.push(...messages.map((m) => m.body as SendJob)); } },
      mail: { send: async (message) => { sent.push(message.tags.email_id!); return { providerMessageId: `line-${randomUUID()}` }; } },
    });
    const caller = callerOfKey(t.key, t.team);
    // The team's domain in a region of its own: this test's line only.
    const prepared = await prepareEmail(deps, caller, { from: t.from, to: 'delivered@resend.dev', subject: 'line', text: 'x' });
    const region = `line-${randomUUID()}`;
    const [a, b] = await acceptEmails(deps, caller, [0, 1].map(() => ({ ...prepared, domain: { ...prepared.domain, region } })));
    queued.splice(0);
    const second = Math.floor(clock.ms / 1000);

    expect(await deliverEmail(deps, { teamId: t.team.id, emailId: a!.id })).toEqual({ kind: 'done' });
    const waiting = await deliverEmail(deps, { teamId: t.team.id, emailId: b!.id });
    expect(waiting).toEqual({ kind: 'retry', delaySeconds: 1, job: { teamId: t.team.id, emailId: b!.id, slotSecond: second + 1 } });
    expect(sent).toEqual([a!.id]);
    const item = await getItem(deps, keys.email.item(t.team.id, b!.id));
    expect(item).toMatchObject({ status: 'queued', attempts: 0, gsi3sk: `${new Date((second + 1) * 1000).toISOString()}#${b!.id}` });

    // Back early (the queue's delay is capped): it waits again, booking nothing new.
    if (waiting.kind !== 'retry') throw new Error('expected a retry');
    expect(await deliverEmail(deps, waiting.job)).toEqual({ kind: 'retry', delaySeconds: 1, job: waiting.job });
    // In its second it sends, and the next place in the line is still the one after it.
    clock.ms = (second + 1) * 1000 + 10;
    expect(await deliverEmail(deps, waiting.job)).toEqual({ kind: 'done' });
    expect(sent).toEqual([a!.id, b!.id]);
    expect((await takeSendSlot(deps, region)).second).toBe(second + 2);
  });
});
