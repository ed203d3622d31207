import { afterEach, describe, expect, it } from 'vitest';
import { classifyFetch, TOO_SOON_MS } from '@mailstack/core/domain/tracking/classify';
import { signTracking, trackingKey } from '@mailstack/core/domain/tracking/tokens';
import { local, testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { startReceiver } from '../support/receiver.ts';
import { inboxMail } from '../support/inbox.ts';

const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});

const HUMAN =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The HTML every test sends: two links, one with an escaped query string. */
const SENT_HTML =
  '<html><body><p>Hi <a href="https://example.com/a?x=1&amp;y=2">A</a> and <a href="https://example.com/b">B</a></p></body></html>';

/** A tracked team, a receiver for the tracking events, and a sent email's tracking URLs from the inbox. */
const trackedSend = async () => {
  const t = await sendingTeam();
  await t.resend.domains.update({ id: t.domainId, openTracking: true, clickTracking: true });
  const rx = await startReceiver();
  receivers.push(rx);
  await t.resend.webhooks.create({
    endpoint: rx.url,
    events: ['email.opened', 'email.clicked', 'email.prefetched'] as any[],
  });
  const subject = `Tracked ${crypto.randomUUID()}`;
  const sent = await t.resend.emails.send({
    from: t.from,
    to: 'delivered@resend.dev',
    subject,
    html: SENT_HTML,
    text: 'Hi https://example.com/a',
  });
  expect(sent.error).toBeNull();
  const mail = await inboxMail(subject, 30_000);
  const html: string = mail.body.html;
  const pixel = /<img src="([^"]+\/t\/o\/[^"]+)"/.exec(html)?.[1];
  const links = [...html.matchAll(/href="([^"]+\/t\/c\/[^"]+)"/g)].map((m) => m[1]!);
  // Past the too-soon window after sending, so a person's fetch counts as a person's.
  await sleep(TOO_SOON_MS + 500);
  return { ...t, rx, emailId: sent.data!.id, pixel: pixel!, links, html, mailText: mail.body.text as string };
};

const get = (url: string, userAgent: string) =>
  fetch(url, { headers: { 'user-agent': userAgent }, redirect: 'manual' });

/** The received events as [type, reason?] once `n` have arrived, in the order they were recorded. */
const sequence = async (rx: Awaited<ReturnType<typeof startReceiver>>, n: number) => {
  await rx.waitFor(n);
  await sleep(500);
  const events = rx.received.map((r) => r.json);
  expect(events).toHaveLength(n);
  return events.sort(
    (a, b) =>
      String(a.data.open?.timestamp ?? a.data.click?.timestamp).localeCompare(
        String(b.data.open?.timestamp ?? b.data.click?.timestamp),
      ) || a.type.localeCompare(b.type),
  );
};

describe('open and click tracking on tracked domains', () => {
  it("rewrites HTML links and adds the pixel, leaves the text part alone; a person's open and click are recorded and move last_event", async () => {
    const s = await trackedSend();
    expect(s.links).toHaveLength(2);
    expect(s.pixel).toContain('/t/o/');
    expect(s.html).not.toContain('https://example.com/a');
    expect(s.mailText).toContain('https://example.com/a');
    // The local host serves no tracking hosts: links and pixel use its own origin, and the domain lists no Tracking record.
    for (const url of [s.pixel, ...s.links]) expect(url.startsWith(`${local().baseUrl}/t/`), url).toBe(true);
    expect((await s.resend.domains.get(s.domainId)).data!.records.map((r) => r.record)).not.toContain('Tracking');

    const open = await get(s.pixel, HUMAN);
    expect(open.status).toBe(200);
    expect(open.headers.get('content-type')).toBe('image/gif');
    expect((await s.resend.emails.get(s.emailId)).data!.last_event).toBe('opened');
    const click = await get(s.links[0]!, HUMAN);
    expect(click.status).toBe(302);
    expect(click.headers.get('location')).toBe('https://example.com/a?x=1&y=2');
    const events = await sequence(s.rx, 2);
    expect(events.map((e) => e.type)).toEqual(['email.opened', 'email.clicked']);
    expect(events[0].data).toMatchObject({
      email_id: s.emailId,
      open: { ipAddress: '127.0.0.1', userAgent: HUMAN, timestamp: expect.any(String) },
    });
    expect(events[0].data.open.reason).toBeUndefined();
    expect(events[1].data).toMatchObject({
      email_id: s.emailId,
      click: {
        ipAddress: '127.0.0.1',
        link: 'https://example.com/a?x=1&y=2',
        userAgent: HUMAN,
        timestamp: expect.any(String),
      },
    });
    expect((await s.resend.emails.get(s.emailId)).data!.last_event).toBe('clicked');
  }, 60_000);

  it('records each machine class as email.prefetched with its reason', async () => {
    const s = await trackedSend();
    const machines: [string, string][] = [
      ['Mozilla/5.0', 'apple_privacy_proxy'],
      [
        'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
        'gmail_image_proxy',
      ],
      ['YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html', 'yahoo_image_proxy'],
      ['Mozilla/5.0 (compatible; Microsoft Office Existence Discovery)', 'microsoft_safe_links'],
      ['Mozilla/5.0 (compatible; Proofpoint URL Defense)', 'proofpoint'],
      ['Mimecast-URL-Protect/1.0', 'mimecast'],
      ['Barracuda Sentinel (EE)', 'barracuda'],
      ['curl/8.4.0', 'bot_user_agent'],
      [
        'Mozilla/5.0 (Windows NT 6.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/41.0.2228.0 Safari/537.36',
        'implausible_browser',
      ],
      ['', 'implausible_browser'],
    ];
    for (const [ua] of machines) expect((await get(s.pixel, ua)).status).toBe(200);
    const events = await sequence(s.rx, machines.length);
    expect(events.map((e) => e.type)).toEqual(Array(machines.length).fill('email.prefetched'));
    expect(events.map((e) => [e.data.open.userAgent, e.data.open.reason]).sort()).toEqual([...machines].sort());
    // A machine's fetch moves nothing.
    expect((await s.resend.emails.get(s.emailId)).data!.last_event).toBe('delivered');
  }, 60_000);

  it('a click without an open records the open (reason click, 1 ms earlier); every link within a second retracts it as email.prefetched with the same timestamp', async () => {
    const s = await trackedSend();
    // The first click is recorded (and announced) before its redirect answers; the second follows at once.
    expect((await get(s.links[0]!, HUMAN)).status).toBe(302);
    expect((await get(s.links[1]!, HUMAN)).status).toBe(302);
    const events = await sequence(s.rx, 4);
    const clicked = events.find((e) => e.type === 'email.clicked')!;
    const opened = events.find((e) => e.type === 'email.opened')!;
    const prefetched = events.filter((e) => e.type === 'email.prefetched');
    expect(opened.data.open).toMatchObject({ reason: 'click', userAgent: HUMAN });
    expect(Date.parse(clicked.data.click.timestamp) - Date.parse(opened.data.open.timestamp)).toBe(1);
    expect(prefetched.map((e) => [e.data.click.link, e.data.click.reason]).sort()).toEqual([
      ['https://example.com/a?x=1&y=2', 'every_link_within_a_second'],
      ['https://example.com/b', 'every_link_within_a_second'],
    ]);
    // The retraction names the retracted click by its timestamp.
    expect(prefetched.find((e) => e.data.click.link === 'https://example.com/a?x=1&y=2')!.data.click.timestamp).toBe(
      clicked.data.click.timestamp,
    );
    expect(events.map((e) => e.type)).toEqual([
      'email.opened',
      'email.clicked',
      'email.prefetched',
      'email.prefetched',
    ]);
  }, 60_000);

  it('answers a plain 404 to a tampered or unknown token, and still redirects a valid click whose email is gone', async () => {
    const s = await trackedSend();
    const token = s.links[0]!.split('/t/c/')[1]!;
    const head = token.slice(0, token.lastIndexOf('.'));
    const mac = token.slice(token.lastIndexOf('.') + 1);
    const tampered = `${local().baseUrl}/t/c/${head}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const url of [
      tampered,
      `${local().baseUrl}/t/o/nonsense`,
      `${local().baseUrl}/t/c/${head}`,
      s.pixel.replace('/t/o/', '/t/c/'),
    ]) {
      const res = await get(url, HUMAN);
      expect(res.status, url).toBe(404);
      expect(res.headers.get('content-type')).toContain('text/plain');
    }
    const orphan = signTracking(await trackingKey(testDeps()), {
      kind: 'c',
      teamId: s.team.id,
      emailId: '0190c2b0-0000-7000-8000-000000000000',
      url: 'https://example.com/still',
    });
    const res = await get(`${local().baseUrl}/t/c/${orphan}`, HUMAN);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://example.com/still');
  }, 60_000);
});

describe("a domain's tracking switches decide what the message carries", () => {
  it.each([
    { open: false, click: false },
    { open: true, click: false },
    { open: false, click: true },
  ])(
    'open tracking $open, click tracking $click',
    async ({ open, click }) => {
      const t = await sendingTeam();
      // A new domain tracks nothing; set the switches explicitly all the same.
      await t.resend.domains.update({ id: t.domainId, openTracking: open, clickTracking: click });
      const subject = `Switches ${crypto.randomUUID()}`;
      const sent = await t.resend.emails.send({
        from: t.from,
        to: 'delivered@resend.dev',
        subject,
        html: SENT_HTML,
        text: 'Hi https://example.com/a',
      });
      expect(sent.error).toBeNull();
      const mail = await inboxMail(subject, 30_000);
      const html: string = mail.body.html;
      expect(html.includes('/t/o/'), 'open pixel').toBe(open);
      expect(/<img\b/i.test(html), 'any image').toBe(open);
      expect(html.includes('/t/c/'), 'rewritten links').toBe(click);
      expect(html.includes('href="https://example.com/a?x=1&amp;y=2"'), 'first link as sent').toBe(!click);
      expect(html.includes('href="https://example.com/b"'), 'second link as sent').toBe(!click);
      // With both switches off, the HTML goes out exactly as it was sent.
      if (!open && !click) expect(html).toBe(SENT_HTML);
      expect(mail.body.text).toBe('Hi https://example.com/a');
    },
    60_000,
  );
});

describe('classification rules that a local request cannot show (address and timing)', () => {
  const base = {
    kind: 'open' as const,
    userAgent: HUMAN,
    ipAddress: '203.0.113.9',
    at: 1_000_000,
    sentAt: 1_000_000 - 60_000,
  };
  it.each([
    [{ ipAddress: '17.58.10.1' }, 'apple_privacy_proxy'],
    [{ ipAddress: '::ffff:17.58.10.1' }, 'apple_privacy_proxy'],
    [{ kind: 'click' as const, ipAddress: '40.107.22.5' }, 'microsoft_safe_links'],
    [{ at: base.sentAt + 1_500 }, 'too_soon_after_delivery'],
    [{ userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Windows NT 10.0 Chrome/120.0' }, 'implausible_browser'],
    [{}, undefined],
    [{ kind: 'click' as const }, undefined],
  ])('%o -> %s', (change, reason) => {
    expect(classifyFetch({ ...base, ...change })).toBe(reason);
  });
});
