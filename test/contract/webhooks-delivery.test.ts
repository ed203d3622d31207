import { describe, expect, it } from 'vitest';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { recordEvent } from '@mailstack/core/domain/events/record-event';
import { sweepUndispatchedEvents } from '@mailstack/core/domain/webhooks/sweep-undispatched-events';
import { getItem } from '@mailstack/core/table/ops';
import { keys } from '@mailstack/core/table/keys';
import { call, newTeam, testDeps } from '../support/local.ts';
import { sdkHeaders, useReceivers, type Received } from '../support/receiver.ts';

const receiver = useReceivers();

/** Verifies one delivery with all three independent verifiers; returns the parsed payload. */
const verifyAll = (resend: import('resend').Resend, r: Received, secret: string) => {
  const headers = Object.fromEntries(
    ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(r.headers[h])]),
  );
  const svixHeaders = Object.fromEntries(
    ['svix-id', 'svix-timestamp', 'svix-signature'].map((h) => [h, String(r.headers[h])]),
  );
  const a = new StandardWebhook(secret).verify(r.body, headers);
  const b = new SvixWebhook(secret).verify(r.body, svixHeaders);
  const c = resend.webhooks.verify({ payload: r.body, headers: sdkHeaders(r), webhookSecret: secret });
  expect(a).toEqual(b);
  expect(b).toEqual(c);
  return c as any;
};

describe('webhook delivery through the local host', () => {
  it('delivers a subscribed event in the reference envelope, verified by standardwebhooks, svix and resend.webhooks.verify', async () => {
    const { resend } = await newTeam();
    const rx = await receiver();
    const { data } = await resend.webhooks.create({ endpoint: rx.url, events: ['contact.created'] });
    const secret = data!.signing_secret;
    // Not subscribed: never delivered.
    const other = await receiver();
    await resend.webhooks.create({ endpoint: other.url, events: ['contact.deleted'] });

    const contact = await resend.contacts.create({ email: 'hook@example.com', firstName: 'Hook' } as any);
    await rx.waitFor(1);
    const r = rx.received[0]!;
    const payload = verifyAll(resend, r, secret);
    expect(payload).toEqual({
      type: 'contact.created',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: expect.objectContaining({
        id: contact.data!.id,
        email: 'hook@example.com',
        first_name: 'Hook',
        unsubscribed: false,
        source: 'api',
      }),
    });
    expect(r.headers['webhook-id']).toBe(r.headers['svix-id']);
    expect(r.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    // A tampered body fails every verifier.
    expect(() =>
      new StandardWebhook(secret).verify(
        r.body.replace('hook@', 'h00k@'),
        Object.fromEntries(
          ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(r.headers[h])]),
        ),
      ),
    ).toThrow();
    await new Promise((res) => setTimeout(res, 500));
    expect(other.received).toHaveLength(0);
  });

  it('signs with both secrets during a rotation overlap (new first), with only the new one after overlap_hours 0', async () => {
    const { resend, secret: key } = await newTeam();
    const rx = await receiver();
    const { data } = await resend.webhooks.create({ endpoint: rx.url, events: ['contact.created'] });
    const oldSecret = data!.signing_secret;
    const rotated = await resend.webhooks.rotateSigningSecret(data!.id);
    const newSecret = rotated.data!.signing_secret;

    await resend.contacts.create({ email: 'rot1@example.com' });
    await rx.waitFor(1);
    const during = rx.received[0]!;
    const candidates = String(during.headers['webhook-signature']).split(' ');
    expect(candidates).toHaveLength(2);
    verifyAll(resend, during, newSecret);
    verifyAll(resend, during, oldSecret);
    // New secret first: the first candidate alone verifies with it.
    expect(
      new StandardWebhook(newSecret).verify(during.body, {
        'webhook-id': String(during.headers['webhook-id']),
        'webhook-timestamp': String(during.headers['webhook-timestamp']),
        'webhook-signature': candidates[0]!,
      }),
    ).toBeTruthy();

    const dropped = await call('POST', `/webhooks/${data!.id}/rotate`, { key, body: { overlap_hours: 0 } });
    await resend.contacts.create({ email: 'rot2@example.com' });
    await rx.waitFor(2);
    const after = rx.received[1]!;
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    verifyAll(resend, after, dropped.json.signing_secret);
    expect(() =>
      resend.webhooks.verify({ payload: after.body, headers: sdkHeaders(after), webhookSecret: newSecret }),
    ).toThrow();
  });

  it('a second rotation inside the overlap replaces the previous secret: the first fails every verifier, the second and third pass', async () => {
    const { resend } = await newTeam();
    const rx = await receiver();
    const { data } = await resend.webhooks.create({ endpoint: rx.url, events: ['contact.created'] });
    const first = data!.signing_secret;
    const second = (await resend.webhooks.rotateSigningSecret(data!.id)).data!.signing_secret;
    const third = (await resend.webhooks.rotateSigningSecret(data!.id)).data!.signing_secret;
    expect(new Set([first, second, third]).size).toBe(3);

    await resend.contacts.create({ email: 'rot3@example.com' });
    await rx.waitFor(1);
    const r = rx.received[0]!;
    expect(String(r.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyAll(resend, r, third)).toMatchObject({ type: 'contact.created', data: { email: 'rot3@example.com' } });
    verifyAll(resend, r, second);
    const headers = Object.fromEntries(
      ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(r.headers[h])]),
    );
    const svixHeaders = Object.fromEntries(
      ['svix-id', 'svix-timestamp', 'svix-signature'].map((h) => [h, String(r.headers[h])]),
    );
    expect(() => new StandardWebhook(first).verify(r.body, headers)).toThrow();
    expect(() => new SvixWebhook(first).verify(r.body, svixHeaders)).toThrow();
    expect(() => resend.webhooks.verify({ payload: r.body, headers: sdkHeaders(r), webhookSecret: first })).toThrow();
  });

  it('keeps a delivery log the SDK reads (events, event, attempts) and replays an event with the same webhook-id', async () => {
    const { resend } = await newTeam();
    const rx = await receiver((_r, n) => (n === 1 ? { status: 503, body: 'down for maintenance' } : { status: 204 }));
    const { data } = await resend.webhooks.create({ endpoint: rx.url, events: ['contact.created', 'contact.deleted'] });
    const webhookId = data!.id;
    const contact = await resend.contacts.create({ email: 'log@example.com' });
    // First attempt fails (503), the retry 5 s later succeeds.
    await rx.waitFor(2, 20_000);
    const [first, second] = rx.received;
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(4_500);

    // The receiver has answered; the deliverer records the outcome just after.
    await expect
      .poll(async () => (await resend.webhooks.events.list({ webhookId })).data?.data[0]?.status, { timeout: 10_000 })
      .toBe('success');
    const events = await resend.webhooks.events.list({ webhookId });
    expect(events.error).toBeNull();
    expect(events.data).toMatchObject({
      object: 'list',
      has_more: false,
      data: [{ id: expect.any(String), type: 'contact.created', created_at: expect.any(String), status: 'success' }],
    });
    const eventId = events.data!.data[0]!.id;
    const event = await resend.webhooks.events.get({ webhookId, eventId });
    expect(event.data).toEqual({
      object: 'webhook_event',
      id: eventId,
      type: 'contact.created',
      created_at: first!.json.created_at,
      status: 'success',
      next_attempt_at: null,
      payload: first!.json,
    });
    expect(event.data!.payload).toMatchObject({ data: { id: contact.data!.id } });
    const attempts = await resend.webhooks.events.attempts.list({ webhookId, eventId });
    expect(attempts.data!.data.map((a) => [a.http_status_code, a.response])).toEqual([
      [204, ''],
      [503, 'down for maintenance'],
    ]);
    for (const a of attempts.data!.data) expect(Date.parse(a.sent_at)).toBeGreaterThan(0);

    const replay = await resend.webhooks.events.replay({ webhookId, eventId });
    expect(replay.data).toEqual({ object: 'webhook_event', id: eventId });
    await rx.waitFor(3);
    expect(rx.received[2]!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(rx.received[2]!.body).toBe(first!.body);
    await expect
      .poll(async () => (await resend.webhooks.events.attempts.list({ webhookId, eventId })).data!.data.length)
      .toBe(3);

    expect(
      (await resend.webhooks.events.get({ webhookId, eventId: '0190c2b0-0000-7000-8000-000000000000' })).error,
    ).toMatchObject({ statusCode: 404 });
    expect(
      (await resend.webhooks.events.replay({ webhookId, eventId: '0190c2b0-0000-7000-8000-000000000000' })).error,
    ).toMatchObject({ statusCode: 404 });
  });

  it('a disabled endpoint receives nothing, and re-enabling does not replay what it missed', async () => {
    const { resend } = await newTeam();
    const rx = await receiver();
    const { data } = await resend.webhooks.create({ endpoint: rx.url, events: ['contact.created'] });
    await resend.webhooks.update(data!.id, { status: 'disabled' });
    await resend.contacts.create({ email: 'missed@example.com' });
    await new Promise((r) => setTimeout(r, 1_500));
    await resend.webhooks.update(data!.id, { status: 'enabled' });
    await resend.contacts.create({ email: 'seen@example.com' });
    await rx.waitFor(1);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(rx.received.map((r) => r.json.data.email)).toEqual(['seen@example.com']);
    expect((await resend.webhooks.events.list({ webhookId: data!.id })).data!.data).toHaveLength(1);
  });
});

describe('an event stored but never queued', () => {
  it('is queued by the event sweeper once the grace period passed, delivered, and then no longer swept', async () => {
    const { resend, team } = await newTeam();
    const rx = await receiver();
    await resend.webhooks.create({ endpoint: rx.url, events: ['contact.created'] });
    // The process dies between storing the event and queuing it: the queue never hears of it.
    const dying = { ...testDeps(), queue: { send: async () => undefined } };
    const event = await recordEvent(dying, team.id, 'contact.created', {
      id: 'c-lost',
      email: 'lost@example.com',
      unsubscribed: false,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      source: 'api',
    });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(rx.received).toHaveLength(0);

    // Within the grace period the sweeper leaves it alone; past it, it queues it for fan-out.
    const now = { ...testDeps(), clock: { now: () => Date.now() } };
    const before = await sweepUndispatchedEvents(now);
    const later = { ...testDeps(), clock: { now: () => Date.now() + 3 * 60_000 } };
    const swept = await sweepUndispatchedEvents(later);
    expect(swept.requeued).toBeGreaterThan(before.requeued);
    await rx.waitFor(1);
    expect(rx.received[0]!.json).toEqual({
      type: 'contact.created',
      created_at: event.createdAt,
      data: {
        id: 'c-lost',
        email: 'lost@example.com',
        unsubscribed: false,
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
        source: 'api',
      },
    });
    expect(rx.received[0]!.headers['webhook-id']).toBe(`msg_${event.id}`);

    // Handed over: the event leaves the sweeper's index.
    await expect
      .poll(async () => (await getItem(testDeps(), keys.event.item(team.id, event.id)))?.dispatched, {
        timeout: 10_000,
      })
      .toBe(true);
    expect((await getItem(testDeps(), keys.event.item(team.id, event.id)))?.gsi3pk).toBeUndefined();
  });
});

describe('per-endpoint limits across every worker', () => {
  const batchOfContacts = async (key: string, n: number, tag: string) => {
    const res = await call('POST', '/contacts/batch', {
      key,
      body: Array.from({ length: n }, (_, i) => ({ email: `${tag}${i}@example.com` })),
    });
    expect(res.status).toBe(200);
  };

  it('a slow receiver never sees more than 8 requests in flight (and does see 8)', async () => {
    const { resend, secret: key } = await newTeam();
    const rx = await receiver(() => ({ status: 200, delayMs: 2_500 }));
    const { data } = await resend.webhooks.create({ endpoint: rx.url, events: ['contact.created'] });
    await batchOfContacts(key, 40, 'slow');
    await rx.waitFor(40, 80_000);
    expect(rx.maxInFlight).toBe(8);
    expect(new Set(rx.received.map((r) => r.headers['webhook-id'])).size).toBe(40);
    for (const r of rx.received.slice(0, 5)) verifyAll(resend, r, data!.signing_secret);
  }, 90_000);

  it("a slow endpoint does not hold back another endpoint's deliveries (each endpoint has its own queue)", async () => {
    const { resend, secret: key } = await newTeam();
    const slow = await receiver(() => ({ status: 200, delayMs: 3_000 }));
    const fast = await receiver(() => ({ status: 200 }));
    await resend.webhooks.create({ endpoint: slow.url, events: ['contact.created'] });
    await resend.webhooks.create({ endpoint: fast.url, events: ['contact.created'] });
    await batchOfContacts(key, 80, 'both');
    await fast.waitFor(80, 30_000);
    // The slow endpoint takes at least 80 × 3 s / 8 = 30 s; the fast one is not paced by it. Held
    // back, the fast one would take as long; half of that leaves room for a loaded host.
    expect(fast.received.at(-1)!.at - fast.received[0]!.at).toBeLessThan(15_000);
    expect(slow.received.length).toBeLessThan(60);
    expect(slow.maxInFlight).toBe(8);
    await slow.waitFor(80, 80_000);
    expect(new Set(slow.received.map((r) => r.headers['webhook-id'])).size).toBe(80);
  }, 120_000);

  it('a fast receiver never sees more than 50 requests in one second', async () => {
    const { resend, secret: key } = await newTeam();
    const rx = await receiver(() => ({ status: 200 }));
    await resend.webhooks.create({ endpoint: rx.url, events: ['contact.created'] });
    await batchOfContacts(key, 200, 'fast');
    await rx.waitFor(200, 60_000);
    expect(rx.maxPerSecond()).toBeLessThanOrEqual(50);
    expect(rx.maxInFlight).toBeLessThanOrEqual(8);
    const span = rx.received.at(-1)!.at - rx.received[0]!.at;
    expect(span).toBeGreaterThanOrEqual(3_000);
  }, 90_000);
});
