import { describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from '../support/browser.ts';
import { call, local, testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { inboxEmails, inboxEntry, inboxMessagesStartingWith } from '../support/inbox.ts';
import { eventsOf } from '../support/events.ts';
import { loadSegmentContacts } from '../support/audience.ts';
import { pauseBroadcasts } from '@mailstack/core/domain/broadcasts/pause-broadcasts';
import { resumeBroadcasts } from '@mailstack/core/domain/broadcasts/resume-broadcasts';
import { updateTeam } from '@mailstack/core/domain/teams/update-team';

type Team = Awaited<ReturnType<typeof sendingTeam>>;

const settled = async (t: Team, id: string, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { data } = await t.resend.broadcasts.get(id);
    if ((data as any)?.status === 'sent' || Date.now() > deadline) return data as any;
    await new Promise((r) => setTimeout(r, 200));
  }
};

/** A segment of contacts: `n` reachable ones plus the ones each skip rule leaves out. */
const audience = async (t: Team, n: number, options: { topic?: boolean } = {}) => {
  const segment = (await t.resend.segments.create({ name: 'Readers' })).data!.id;
  const topic = options.topic
    ? (await t.resend.topics.create({ name: 'News', defaultSubscription: 'opt_in' } as any)).data!.id
    : undefined;
  await t.resend.contactProperties.create({ key: 'plan', type: 'string', fallbackValue: 'free' } as any);
  const tag = t.team.id.slice(-12);
  const reachable = Array.from({ length: n }, (_, i) => `reader${i}-${tag}@example.com`);
  for (const [i, email] of reachable.entries()) {
    await t.resend.contacts.create({
      email,
      ...(i === 0 ? { firstName: 'Ann', properties: { plan: 'gold' } } : {}),
      segments: [{ id: segment }],
    } as any);
  }
  await t.resend.contacts.create({
    email: `gone-${tag}@example.com`,
    unsubscribed: true,
    segments: [{ id: segment }],
  } as any);
  await t.resend.contacts.create({ email: `bounced-${tag}@example.com`, segments: [{ id: segment }] } as any);
  await t.resend.suppressions.add({ email: `bounced-${tag}@example.com` } as any);
  if (topic)
    await t.resend.contacts.create({
      email: `optout-${tag}@example.com`,
      segments: [{ id: segment }],
      topics: [{ id: topic, subscription: 'opt_out' }],
    } as any);
  return { segment, topic, reachable, tag };
};

describe('broadcasts through the official SDK', () => {
  it('creates drafts (segment_id or audience_id), reads, lists, updates, duplicates and deletes them', async () => {
    // Prepare
    const t = await sendingTeam();
    const segment = (await t.resend.segments.create({ name: 'S' })).data!.id;

    // Act
    const created = await t.resend.broadcasts.create({
      name: 'Launch',
      segmentId: segment,
      from: t.from,
      subject: 'Hello',
      html: '<p>Hi</p>',
      previewText: 'Peek',
      replyTo: 'help@example.com',
    });
    const legacy = await t.resend.broadcasts.create({
      audienceId: segment,
      from: t.from,
      subject: 'Old',
      text: 'plain',
    });

    // Assess
    expect(created.error).toBeNull();
    expect(created.data).toMatchObject({ id: expect.any(String) });
    const id = created.data!.id;
    const got = (await t.resend.broadcasts.get(id)).data!;
    expect(got).toMatchObject({
      object: 'broadcast',
      id,
      name: 'Launch',
      segment_id: segment,
      audience_id: segment,
      from: t.from,
      subject: 'Hello',
      reply_to: ['help@example.com'],
      preview_text: 'Peek',
      status: 'draft',
      html: '<p>Hi</p>',
      text: null,
      scheduled_at: null,
      sent_at: null,
      topic_id: null,
      created_at: expect.any(String),
    });
    expect(got).toMatchObject({ sent_count: 0, finishes_at: null });
    expect((await t.resend.broadcasts.get(legacy.data!.id)).data).toMatchObject({ segment_id: segment, text: 'plain' });

    expect((await t.resend.broadcasts.update(id, { subject: 'Hello again', name: 'Launch 2' })).data).toMatchObject({
      id,
    });
    expect((await t.resend.broadcasts.get(id)).data).toMatchObject({
      subject: 'Hello again',
      name: 'Launch 2',
      html: '<p>Hi</p>',
    });

    const list = await t.resend.broadcasts.list();
    expect(list.data).toMatchObject({ object: 'list', has_more: false });
    expect(list.data!.data.map((b) => b.id)).toEqual([legacy.data!.id, id]);
    expect(Object.keys(list.data!.data[0]!).sort()).toEqual([
      'audience_id',
      'created_at',
      'finishes_at',
      'id',
      'name',
      'scheduled_at',
      'segment_id',
      'sent_at',
      'sent_count',
      'status',
      'topic_id',
    ]);

    const copy = await t.resend.broadcasts.duplicate(id);
    expect(copy.data).toMatchObject({ object: 'broadcast', id: expect.any(String) });
    expect((await t.resend.broadcasts.get(copy.data!.id)).data).toMatchObject({
      status: 'draft',
      subject: 'Hello again',
      name: 'Launch 2',
    });

    expect((await t.resend.broadcasts.remove(copy.data!.id)).data).toEqual({
      object: 'broadcast',
      id: copy.data!.id,
      deleted: true,
    });
    expect((await t.resend.broadcasts.get(copy.data!.id)).error).toMatchObject({ statusCode: 404, name: 'not_found' });
  });

  it.each([
    ['no segment', (_s: string, f: string) => ({ from: f, subject: 's', html: 'x' }), 'segment_id'],
    [
      'an unknown segment',
      (_s: string, f: string) => ({ segment_id: crypto.randomUUID(), from: f, subject: 's', html: 'x' }),
      'segment',
    ],
    ['no body', (s: string, f: string) => ({ segment_id: s, from: f, subject: 's' }), 'html'],
    [
      'scheduled_at without send',
      (s: string, f: string) => ({ segment_id: s, from: f, subject: 's', html: 'x', scheduled_at: 'in 1 hour' }),
      'send',
    ],
    [
      'a sender that is two addresses',
      (s: string) => ({ segment_id: s, from: 'a@x.com, b@x.com', subject: 's', html: 'x' }),
      'from',
    ],
  ])('refuses a broadcast with %s (422)', async (_case, body, says) => {
    const t = await sendingTeam();
    const segment = (await t.resend.segments.create({ name: 'S' })).data!.id;
    const out = await call('POST', '/broadcasts', { key: t.secret, body: body(segment, t.from) });
    expect(out.status).toBe(422);
    expect(out.json).toMatchObject({ name: 'validation_error' });
    expect(out.json.message).toContain(says);
  });

  it("counts a person's opens and clicks per recipient and per link (recipients opened and clicked, clickedLinks), never a machine's", async () => {
    // Prepare: a tracked domain, three readers, two links.
    const t = await sendingTeam();
    await t.resend.domains.update({ id: t.domainId, openTracking: true, clickTracking: true });
    const { segment, reachable, tag } = await audience(t, 3);
    const subject = `Links ${tag}`;
    const created = await t.resend.broadcasts.create({
      segmentId: segment,
      from: t.from,
      subject,
      html: '<p>Read <a href="https://example.com/story">the story</a> or <a href="https://example.com/shop">the shop</a>. <a href="{{{UNSUBSCRIBE_URL}}}">unsubscribe</a></p>',
    });
    await t.resend.broadcasts.send(created.data!.id);
    await settled(t, created.data!.id);
    const mails = await inboxMessagesStartingWith(subject, 3);
    const tracked = (to: string) => {
      const html: string = mails.find((m) => m.destination.to[0] === to)!.body.html;
      const [story, shop] = [...html.matchAll(/href="([^"]+\/t\/c\/[^"]+)"/g)].map((m) => m[1]!);
      return { story: story!, shop: shop!, pixel: /<img src="([^"]+\/t\/o\/[^"]+)"/.exec(html)![1]! };
    };
    const [ann, bob, cat] = reachable.map(tracked) as [
      ReturnType<typeof tracked>,
      ReturnType<typeof tracked>,
      ReturnType<typeof tracked>,
    ];
    const human =
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
    const fetchAs = (url: string, userAgent = human) =>
      fetch(url, { headers: { 'user-agent': userAgent }, redirect: 'manual' });
    await new Promise((r) => setTimeout(r, 3_500)); // past the too-soon window after sending

    // Act: Ann clicks the story twice, Bob the story then (later than a second) the shop, Cat only
    // opens; a link scanner fetches Cat's shop link.
    expect((await fetchAs(ann.story)).status).toBe(302);
    expect((await fetchAs(ann.story)).status).toBe(302);
    await fetchAs(bob.story);
    await new Promise((r) => setTimeout(r, 1_200));
    await fetchAs(bob.shop);
    await fetchAs(cat.pixel);
    await fetchAs(cat.shop, 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)');

    // Assess
    const id = created.data!.id;
    const links = await t.resend.broadcasts.clickedLinks(id);
    expect(links.error).toBeNull();
    expect(links.data).toMatchObject({ object: 'list', has_more: false });
    expect(links.data!.data.map(({ url, clicks, unique_clicks }) => ({ url, clicks, unique_clicks }))).toEqual([
      { url: 'https://example.com/story', clicks: 3, unique_clicks: 2 },
      { url: 'https://example.com/shop', clicks: 1, unique_clicks: 1 },
    ]);
    const first = await t.resend.broadcasts.clickedLinks(id, { limit: 1 });
    expect(first.data).toMatchObject({ has_more: true, data: [{ url: 'https://example.com/story' }] });
    const second = await t.resend.broadcasts.clickedLinks(id, { limit: 1, after: first.data!.data[0]!.id });
    expect(second.data).toMatchObject({ has_more: false, data: [{ url: 'https://example.com/shop' }] });

    const clicked = await t.resend.broadcasts.recipients(id, { type: 'clicked' });
    const byEmail = (rows: any[]) => Object.fromEntries(rows.map((r) => [r.email, r]));
    const c = byEmail(clicked.data!.data);
    expect(Object.keys(c).sort()).toEqual([reachable[0], reachable[1]].sort());
    expect(c[reachable[0]!]).toMatchObject({
      count: 2,
      clicked_links: [{ url: 'https://example.com/story', clicks: 2 }],
    });
    expect(c[reachable[1]!].count).toBe(2);
    expect([...c[reachable[1]!].clicked_links].sort((a: any, b: any) => a.url.localeCompare(b.url))).toEqual([
      { url: 'https://example.com/shop', clicks: 1 },
      { url: 'https://example.com/story', clicks: 1 },
    ]);
    const opened = byEmail((await t.resend.broadcasts.recipients(id, { type: 'opened' })).data!.data);
    expect(Object.keys(opened).sort()).toEqual([...reachable].sort());
    expect(opened[reachable[2]!]).toMatchObject({ count: 1, contact_id: expect.any(String) });
    expect((await t.resend.broadcasts.clickedLinks('0190c2b0-0000-7000-8000-000000000000')).error).toMatchObject({
      statusCode: 404,
    });
  }, 90_000);

  it('sends to each eligible contact once, personalised, with the unsubscribe link, and skips and counts the rest', async () => {
    // Prepare
    const t = await sendingTeam();
    const { segment, topic, reachable, tag } = await audience(t, 3, { topic: true });
    const subject = `News ${tag}`;
    const created = await t.resend.broadcasts.create({
      segmentId: segment,
      topicId: topic,
      from: t.from,
      subject: `${subject} for {{{FIRST_NAME|there}}}`,
      html: '<p>Hi {{{contact.first_name|friend}}} ({{{plan}}}) <a href="{{{UNSUBSCRIBE_URL}}}">unsubscribe</a></p>',
      text: 'Hi {{{FIRST_NAME|there}}}, plan {{{contact.plan}}}. Unsubscribe: {{{UNSUBSCRIBE_URL}}}',
    });

    // Act
    const sent = await t.resend.broadcasts.send(created.data!.id);

    // Assess
    expect(sent.error).toBeNull();
    expect(sent.data).toMatchObject({ id: created.data!.id, finishes_at: expect.any(String), estimated: true });
    expect((sent.data as any).warning).toBeUndefined();
    const began = Date.parse(((await t.resend.broadcasts.get(created.data!.id)).data as any).sent_at);
    expect(Math.abs(began - Date.now())).toBeLessThan(10_000);
    const done = await settled(t, created.data!.id);
    expect(done).toMatchObject({
      status: 'sent',
      sent_count: 3,
      skipped: { unsubscribed: 1, suppressed: 1, opted_out: 1 },
      finishes_at: expect.any(String),
    });
    const mails = await inboxMessagesStartingWith(subject, 3);
    expect(mails.map((m) => m.destination.to[0]).sort()).toEqual([...reachable].sort());
    const ann = mails.find((m) => m.destination.to[0] === reachable[0])!;
    expect(ann.subject).toBe(`${subject} for Ann`);
    expect(ann.body.html).toContain('Hi Ann (gold)');
    expect(ann.body.text).toMatch(/Hi Ann, plan gold\. Unsubscribe: http:\/\/127\.0\.0\.1:\d+\/unsubscribe\//);
    const other = mails.find((m) => m.destination.to[0] === reachable[1])!;
    expect(other.subject).toBe(`${subject} for there`);
    expect(other.body.html).toContain('Hi friend (free)');

    const recipients = await t.resend.broadcasts.recipients(created.data!.id, { type: 'sent' });
    expect(recipients.data!.data.map((r) => r.email).sort()).toEqual([...reachable].sort());
    expect(recipients.data!.data[0]).toMatchObject({ id: expect.any(String), contact_id: expect.any(String) });
    expect(
      (await t.resend.broadcasts.recipients(created.data!.id, { type: 'suppressed' })).data!.data.map((r) => r.email),
    ).toEqual([`bounced-${tag}@example.com`]);
    expect(
      (await t.resend.broadcasts.recipients(created.data!.id, { type: 'unsubscribed' }))
        .data!.data.map((r) => r.email)
        .sort(),
    ).toEqual([`gone-${tag}@example.com`, `optout-${tag}@example.com`]);
    const page = await t.resend.broadcasts.recipients(created.data!.id, { type: 'sent', limit: 2 });
    expect(page.data!.has_more).toBe(true);
    const rest = await t.resend.broadcasts.recipients(created.data!.id, {
      type: 'sent',
      limit: 2,
      after: page.data!.data[1]!.id,
    });
    expect(rest.data!.data).toHaveLength(1);

    const events = (await eventsOf(t.team.id)).filter((e) => e.type === 'email.sent');
    expect(events).toHaveLength(3);
    for (const e of events) expect(e.data.broadcast_id).toBe(created.data!.id);

    // A sent broadcast is no longer a draft.
    expect((await t.resend.broadcasts.update(created.data!.id, { subject: 'x' })).error).toMatchObject({
      statusCode: 400,
      name: 'invalid_parameter',
    });
    expect((await t.resend.broadcasts.remove(created.data!.id)).error).toMatchObject({
      statusCode: 400,
      name: 'invalid_parameter',
    });
    expect((await t.resend.broadcasts.send(created.data!.id)).error).toMatchObject({
      statusCode: 400,
      name: 'invalid_parameter',
    });
  }, 90_000);

  it('carries the generated List-Unsubscribe pair on broadcast mail, kept with the raw MIME in the local inbox and shown in its view', async () => {
    const t = await sendingTeam();
    const { segment, tag } = await audience(t, 1);
    const subject = `Headers ${tag}`;
    await t.resend.broadcasts.create({ segmentId: segment, from: t.from, subject, text: 'x', send: true });
    // Read as an entry of the inbox: its headers are added a moment after the message is stored.
    const mail = await inboxEntry((m) => String(m.subject).startsWith(subject), `with a subject starting "${subject}"`);
    const header = (name: string) =>
      mail.headers.find((h: { name: string }) => h.name.toLowerCase() === name.toLowerCase())?.value;
    expect(header('List-Unsubscribe')).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/unsubscribe\/[^>]+>$/);
    expect(header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    // SES writes its own Message-ID on what it sends.
    expect(header('Message-ID')).toMatch(/@email\.amazonses\.com>$/);
    expect(mail.raw).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(mail.raw).toContain(`Subject: ${subject}`);

    // The inbox view, in a browser: the message's headers and raw MIME open under its buttons.
    const browser = await launchBrowser();
    try {
      const page = await openPage(browser);
      await page.goto(local().inboxUrl, { timeout: 20_000 });
      const headers = page.locator(`[id="${mail.messageId}-headers"]`);
      const raw = page.locator(`[id="${mail.messageId}-raw"]`);
      await headers.waitFor({ state: 'attached', timeout: 20_000 });
      expect(await headers.isVisible()).toBe(false);
      await page.locator(`button[data-toggle="${mail.messageId}-headers"]`).click();
      expect(await headers.innerText()).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
      expect(await headers.innerText()).toMatch(/List-Unsubscribe: <http:\/\/127\.0\.0\.1:\d+\/unsubscribe\//);
      await page.locator(`button[data-toggle="${mail.messageId}-raw"]`).click();
      expect(await raw.innerText()).toContain(`Subject: ${subject}`);
      expect(await raw.innerText()).toContain('MIME-Version: 1.0');
    } finally {
      await browser.close();
    }
  }, 90_000);

  it('schedules with send (natural language), reads as scheduled, and cancels with canceled_remaining', async () => {
    const t = await sendingTeam();
    const { segment } = await audience(t, 2);
    const made = await t.resend.broadcasts.create({
      segmentId: segment,
      from: t.from,
      subject: 'Later',
      text: 'x',
      send: true,
      scheduledAt: 'in 1 hour',
    });
    expect(made.data).toMatchObject({ id: expect.any(String), finishes_at: expect.any(String), estimated: true });
    const read = (await t.resend.broadcasts.get(made.data!.id)).data as any;
    expect(read.status).toBe('scheduled');
    expect(Date.parse(read.scheduled_at) - Date.now()).toBeGreaterThan(3_500_000);
    // A broadcast scheduled for later does not hold the region now: one sent now is not queued behind it.
    const now = await t.resend.broadcasts.create({
      segmentId: segment,
      from: t.from,
      subject: 'Now',
      text: 'x',
      send: true,
    });
    expect(now.error).toBeNull();
    expect((now.data as any).warning).toBeUndefined();

    const canceled = await t.resend.broadcasts.cancel(made.data!.id);
    expect(canceled.data).toMatchObject({ object: 'broadcast', id: made.data!.id });
    for (
      let i = 0;
      i < 50 && ((await t.resend.broadcasts.get(made.data!.id)).data as any).canceled_remaining !== 2;
      i++
    )
      await new Promise((r) => setTimeout(r, 200));
    expect((await t.resend.broadcasts.get(made.data!.id)).data).toMatchObject({
      status: 'canceled',
      sent_count: 0,
      canceled_remaining: 2,
      finishes_at: null,
    });
    expect((await t.resend.broadcasts.update(made.data!.id, { subject: 'x' })).error).toMatchObject({
      statusCode: 400,
      name: 'invalid_parameter',
    });
  }, 60_000);

  it('refuses to send while the operator pauses broadcasts for the team or the region (403 broadcasts_paused), and again after resuming', async () => {
    const t = await sendingTeam();
    const segment = (await t.resend.segments.create({ name: 'S' })).data!.id;
    const draft = (await t.resend.broadcasts.create({ segmentId: segment, from: t.from, subject: 's', text: 'x' }))
      .data!.id;
    await pauseBroadcasts(testDeps(), 'team', t.team.id, { reason: 'review' });
    const refused = await t.resend.broadcasts.send(draft);
    expect(refused.error).toMatchObject({ statusCode: 403, name: 'broadcasts_paused' });
    expect(refused.error!.message).toContain('Transactional email is unaffected');
    // Created and sent in one call: the refusal leaves no broadcast behind.
    const oneCall = await t.resend.broadcasts.create({
      segmentId: segment,
      from: t.from,
      subject: 's',
      text: 'x',
      send: true,
    });
    expect(oneCall.error).toMatchObject({ statusCode: 403, name: 'broadcasts_paused' });
    expect((await t.resend.broadcasts.list()).data!.data.map((b) => b.id)).toEqual([draft]);
    // Transactional mail goes on.
    expect(
      (await t.resend.emails.send({ from: t.from, to: 'delivered@resend.dev', subject: 'still', text: 'x' })).error,
    ).toBeNull();
    await resumeBroadcasts(testDeps(), 'team', t.team.id);
    await pauseBroadcasts(testDeps(), 'region', 'us-east-1', { until: Date.now() + 60_000 });
    try {
      expect((await t.resend.broadcasts.send(draft)).error).toMatchObject({
        statusCode: 403,
        name: 'broadcasts_paused',
      });
    } finally {
      await resumeBroadcasts(testDeps(), 'region', 'us-east-1');
    }
    expect((await t.resend.broadcasts.send(draft)).error).toBeNull();
  });

  it('refuses to send for a team suspended elsewhere (403 team_suspended) at the next call, though the host holds a copy of the team', async () => {
    const t = await sendingTeam();
    const segment = (await t.resend.segments.create({ name: 'S' })).data!.id;
    const draft = (await t.resend.broadcasts.create({ segmentId: segment, from: t.from, subject: 's', text: 'x' }))
      .data!.id;
    await updateTeam(testDeps(), t.team.id, { status: 'suspended' });
    expect((await t.resend.broadcasts.send(draft)).error).toMatchObject({ statusCode: 403, name: 'team_suspended' });
    const oneCall = await t.resend.broadcasts.create({
      segmentId: segment,
      from: t.from,
      subject: 's',
      text: 'x',
      send: true,
    });
    expect(oneCall.error).toMatchObject({ statusCode: 403, name: 'team_suspended' });
    expect((await t.resend.broadcasts.get(draft)).data).toMatchObject({ status: 'draft' });
    expect((await t.resend.broadcasts.list()).data!.data.map((b) => b.id)).toEqual([draft]);
  });

  it('answers finishes_at null for an audience with no one in it, before and after it is sent', async () => {
    const t = await sendingTeam();
    const segment = (await t.resend.segments.create({ name: 'Nobody' })).data!.id;
    const made = await t.resend.broadcasts.create({
      segmentId: segment,
      from: t.from,
      subject: 's',
      text: 'x',
      send: true,
    });
    expect(made.data).toMatchObject({ finishes_at: null, estimated: true });
    expect(await settled(t, made.data!.id)).toMatchObject({ status: 'sent', sent_count: 0, finishes_at: null });
  }, 60_000);

  it("answers 404 for another team's broadcast", async () => {
    const a = await sendingTeam();
    const b = await sendingTeam();
    const segment = (await a.resend.segments.create({ name: 'S' })).data!.id;
    const id = (await a.resend.broadcasts.create({ segmentId: segment, from: a.from, subject: 's', text: 'x' })).data!
      .id;
    expect((await b.resend.broadcasts.get(id)).error).toMatchObject({ statusCode: 404, name: 'not_found' });
    expect((await b.resend.broadcasts.send(id)).error).toMatchObject({ statusCode: 404, name: 'not_found' });
    expect((await b.resend.broadcasts.cancel(id)).error).toMatchObject({ statusCode: 404, name: 'not_found' });
    expect((await b.resend.broadcasts.recipients(id, { type: 'sent' })).error).toMatchObject({
      statusCode: 404,
      name: 'not_found',
    });
  });
});

describe('broadcasts made from a template', () => {
  it("delivers the template's sender, subject and bodies rendered for each contact, with the given variables and the template's fallbacks", async () => {
    // Prepare
    const t = await sendingTeam();
    const tag = t.team.id.slice(-12);
    const segment = (await t.resend.segments.create({ name: 'Readers' })).data!.id;
    const [ann, other] = [`ann-${tag}@example.com`, `other-${tag}@example.com`];
    await t.resend.contacts.create({ email: ann, firstName: 'Ann', segments: [{ id: segment }] } as any);
    await t.resend.contacts.create({ email: other, segments: [{ id: segment }] } as any);
    const template = await t.resend.templates.create({
      name: 'Offer',
      alias: `offer-${tag}`,
      from: t.from,
      replyTo: 'help@example.com',
      subject: `Offer ${tag} for {{{FIRST_NAME|reader}}}`,
      html: '<p>Hi {{{contact.first_name|friend}}}: {{{OFFER}}} until {{{UNTIL}}}. <a href="{{{UNSUBSCRIBE_URL}}}">unsubscribe</a></p>',
      text: 'Hi {{{FIRST_NAME|friend}}}: {{{OFFER}}} until {{{UNTIL}}}. Unsubscribe: {{{UNSUBSCRIBE_URL}}}',
      variables: [
        { key: 'OFFER', type: 'string' },
        { key: 'UNTIL', type: 'string', fallbackValue: 'Friday' },
      ],
    });
    expect(template.error).toBeNull();

    // Act: the SDK's broadcasts.create has no template, so over HTTP; then sent through the SDK.
    const made = await call('POST', '/broadcasts', {
      key: t.secret,
      body: { segment_id: segment, template: { id: `offer-${tag}`, variables: { OFFER: 'Fish & Chips' } } },
    });
    expect(made.status, made.text).toBe(201);
    const id = made.json.id as string;
    const draft = (await t.resend.broadcasts.get(id)).data;
    const sent = await t.resend.broadcasts.send(id);

    // Assess
    expect(draft).toMatchObject({
      status: 'draft',
      from: t.from,
      subject: `Offer ${tag} for {{{FIRST_NAME|reader}}}`,
      reply_to: ['help@example.com'],
    });
    expect(sent.error).toBeNull();
    expect(await settled(t, id)).toMatchObject({ status: 'sent', sent_count: 2 });
    const mails = await inboxMessagesStartingWith(`Offer ${tag}`, 2);
    const to = (address: string) => mails.find((m) => m.destination.to[0] === address)!;
    expect(to(ann).subject).toBe(`Offer ${tag} for Ann`);
    expect(to(ann).body.html).toContain('Hi Ann: Fish &amp; Chips until Friday.');
    expect(to(ann).body.html).toMatch(/href="http:\/\/127\.0\.0\.1:\d+\/unsubscribe\//);
    expect(to(ann).body.text).toMatch(
      /^Hi Ann: Fish & Chips until Friday\. Unsubscribe: http:\/\/127\.0\.0\.1:\d+\/unsubscribe\//,
    );
    expect(to(other).subject).toBe(`Offer ${tag} for reader`);
    expect(to(other).body.html).toContain('Hi friend: Fish &amp; Chips until Friday.');
  }, 60_000);

  it('keeps a broadcast made from a template whole when the template is deleted: it still reads and still sends', async () => {
    // Prepare
    const t = await sendingTeam();
    const tag = t.team.id.slice(-12);
    const segment = (await t.resend.segments.create({ name: 'Readers' })).data!.id;
    const reader = `reader-${tag}@example.com`;
    await t.resend.contacts.create({ email: reader, firstName: 'Bea', segments: [{ id: segment }] } as any);
    const template = (
      await t.resend.templates.create({
        name: 'Gone',
        from: t.from,
        subject: `Kept ${tag}`,
        html: '<p>Hello {{{FIRST_NAME|there}}}, code {{{CODE}}}</p>',
        text: 'Hello {{{FIRST_NAME|there}}}, code {{{CODE}}}',
        variables: [{ key: 'CODE', type: 'string' }],
      })
    ).data!.id;
    const made = await call('POST', '/broadcasts', {
      key: t.secret,
      body: { segment_id: segment, template: { id: template, variables: { CODE: 'A1' } } },
    });
    expect(made.status, made.text).toBe(201);
    const id = made.json.id as string;

    // Act
    const removed = await t.resend.templates.remove(template);
    const read = await t.resend.broadcasts.get(id);
    const sent = await t.resend.broadcasts.send(id);

    // Assess
    expect(removed.data).toEqual({ object: 'template', id: template, deleted: true });
    expect((await t.resend.templates.get(template)).error).toMatchObject({ statusCode: 404, name: 'not_found' });
    expect(read.error).toBeNull();
    expect(read.data).toMatchObject({
      id,
      status: 'draft',
      from: t.from,
      subject: `Kept ${tag}`,
      html: '<p>Hello {{{FIRST_NAME|there}}}, code {{{CODE}}}</p>',
      text: 'Hello {{{FIRST_NAME|there}}}, code {{{CODE}}}',
    });
    expect(sent.error).toBeNull();
    expect(await settled(t, id)).toMatchObject({ status: 'sent', sent_count: 1 });
    const [mail] = await inboxMessagesStartingWith(`Kept ${tag}`, 1);
    expect(mail.destination.to).toEqual([reader]);
    expect(mail.body.html).toContain('Hello Bea, code A1');
    expect(mail.body.text.trim()).toBe('Hello Bea, code A1');
  }, 60_000);
});

describe('sending a broadcast: pacing answers and schedules', () => {
  it("refuses an audience needing more than 24 days of the plan's daily capacity with 422 broadcast_too_large, and leaves the draft unsent", async () => {
    // Prepare: a Free team sends 100 a day, so 2,401 recipients need more than 24 days.
    const t = await sendingTeam({ plan: 'free' });
    const tag = t.team.id.slice(-12);
    const segment = (await t.resend.segments.create({ name: 'Everyone' })).data!.id;
    await loadSegmentContacts(
      t.team.id,
      segment,
      Array.from({ length: 2_401 }, (_, i) => ({ email: `r${i}-${tag}@example.com` })),
    );
    const draft = (
      await t.resend.broadcasts.create({ segmentId: segment, from: t.from, subject: `Too many ${tag}`, text: 'x' })
    ).data!.id;

    // Act
    const refused = await t.resend.broadcasts.send(draft);

    // Assess
    expect(refused.data).toBeNull();
    expect(refused.error).toMatchObject({ statusCode: 422, name: 'broadcast_too_large' });
    expect((await t.resend.broadcasts.get(draft)).data).toMatchObject({
      status: 'draft',
      sent_count: 0,
      sent_at: null,
      finishes_at: null,
    });
  }, 60_000);

  it('warns `queued_behind` when another broadcast holds the region at the time this one would start, and plans it after that one', async () => {
    // Prepare: two teams sending from the same region, both for one instant days ahead (so no
    // broadcast sent now by another test is held by them).
    const [a, b] = [await sendingTeam(), await sendingTeam()];
    const segmentOf = async (t: Team, n: number) => {
      const segment = (await t.resend.segments.create({ name: 'Everyone' })).data!.id;
      await loadSegmentContacts(
        t.team.id,
        segment,
        Array.from({ length: n }, (_, i) => ({ email: `r${i}-${t.team.id.slice(-12)}@example.com` })),
      );
      return segment;
    };
    const at = new Date(
      Math.ceil((Date.now() + 10 * 86_400_000 + Math.random() * 3_600_000) / 1000) * 1000,
    ).toISOString();
    const first = (
      await a.resend.broadcasts.create({ segmentId: await segmentOf(a, 30), from: a.from, subject: 'First', text: 'x' })
    ).data!.id;
    const second = (
      await b.resend.broadcasts.create({ segmentId: await segmentOf(b, 3), from: b.from, subject: 'Second', text: 'x' })
    ).data!.id;

    try {
      // Act
      const ahead = await a.resend.broadcasts.send(first, { scheduledAt: at });
      const behind = await b.resend.broadcasts.send(second, { scheduledAt: at });

      // Assess
      expect(ahead.error).toBeNull();
      expect((ahead.data as any).warning).toBeUndefined();
      expect(behind.error).toBeNull();
      expect(behind.data).toMatchObject({ id: second, estimated: true, finishes_at: expect.any(String) });
      const warning = (behind.data as any).warning;
      expect(warning).toEqual({ type: 'queued_behind', days: expect.any(Number), message: expect.any(String) });
      expect(warning.days).toBeGreaterThanOrEqual(1);
      // The first one's 30 recipients at the broadcast rate run past the instant; the second starts after its last send.
      const firstEnds = Date.parse((ahead.data as any).finishes_at);
      expect(firstEnds).toBeGreaterThan(Date.parse(at));
      expect(Date.parse((behind.data as any).finishes_at)).toBeGreaterThan(firstEnds);
      expect((await b.resend.broadcasts.get(second)).data).toMatchObject({
        status: 'scheduled',
        scheduled_at: at,
        sent_count: 0,
      });
    } finally {
      await a.resend.broadcasts.cancel(first);
      await b.resend.broadcasts.cancel(second);
    }
  }, 60_000);

  it('cancels a draft too (any state moves to canceled): canceled_remaining 0, and it can no longer be sent', async () => {
    const t = await sendingTeam();
    const { segment } = await audience(t, 1);
    const draft = (await t.resend.broadcasts.create({ segmentId: segment, from: t.from, subject: 'Never', text: 'x' }))
      .data!.id;
    const canceled = await t.resend.broadcasts.cancel(draft);
    expect(canceled.error).toBeNull();
    expect(canceled.data).toEqual({ object: 'broadcast', id: draft, canceled_remaining: 0 });
    expect((await t.resend.broadcasts.get(draft)).data).toMatchObject({
      status: 'canceled',
      canceled_remaining: 0,
      sent_count: 0,
    });
    expect((await t.resend.broadcasts.send(draft)).error).toMatchObject({
      statusCode: 400,
      name: 'invalid_parameter',
      message: expect.stringContaining('This broadcast was canceled'),
    });
  });

  it('schedules a draft with send(id, { scheduledAt }): reads as scheduled at that time, sends nothing before it, and the cancel answer carries canceled_remaining', async () => {
    // Prepare
    const t = await sendingTeam();
    const { segment, tag } = await audience(t, 2);
    const subject = `Planned ${tag}`;
    const draft = (await t.resend.broadcasts.create({ segmentId: segment, from: t.from, subject, text: 'x' })).data!.id;
    const at = new Date(Math.ceil((Date.now() + 3_600_000) / 1000) * 1000).toISOString();

    // Act
    const sent = await t.resend.broadcasts.send(draft, { scheduledAt: at });
    const read = (await t.resend.broadcasts.get(draft)).data as any;
    const row = (await t.resend.broadcasts.list()).data!.data.find((r) => r.id === draft);
    const canceled = await t.resend.broadcasts.cancel(draft);

    // Assess
    expect(sent.error).toBeNull();
    expect(sent.data).toMatchObject({ id: draft, estimated: true });
    expect(Date.parse((sent.data as any).finishes_at)).toBeGreaterThanOrEqual(Date.parse(at));
    // Nothing is sent before its time: no sent_at while scheduled, nor once canceled.
    expect(read).toMatchObject({ status: 'scheduled', scheduled_at: at, sent_at: null, sent_count: 0 });
    expect(row).toMatchObject({
      status: 'scheduled',
      scheduled_at: at,
      sent_at: null,
      sent_count: 0,
      finishes_at: (sent.data as any).finishes_at,
    });
    // Two eligible recipients (the unsubscribed and suppressed contacts are not), none sent to.
    expect(canceled.error).toBeNull();
    expect(canceled.data).toEqual({ object: 'broadcast', id: draft, canceled_remaining: 2 });
    expect((await t.resend.broadcasts.get(draft)).data).toMatchObject({ status: 'canceled', sent_at: null });
    expect((await t.resend.broadcasts.recipients(draft, { type: 'sent' })).data!.data).toEqual([]);
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await inboxEmails()).filter((m) => String(m.subject).startsWith(subject))).toEqual([]);
  }, 60_000);

  it('sends a draft scheduled a few seconds ahead no earlier than the scheduled second', async () => {
    // Prepare
    const t = await sendingTeam();
    const { segment, tag } = await audience(t, 2);
    const subject = `Soon ${tag}`;
    const draft = (await t.resend.broadcasts.create({ segmentId: segment, from: t.from, subject, text: 'x' })).data!.id;
    const at = Math.ceil((Date.now() + 3_000) / 1000) * 1000;

    // Act
    const sent = await t.resend.broadcasts.send(draft, { scheduledAt: new Date(at).toISOString() });

    // Assess: the inbox stamps each message with the whole second the provider took it; none before the scheduled one.
    expect(sent.error).toBeNull();
    // Sending began at the scheduled second, not when it was asked for.
    expect(await settled(t, draft)).toMatchObject({
      status: 'sent',
      sent_count: 2,
      sent_at: new Date(at).toISOString(),
    });
    const mails = await inboxMessagesStartingWith(subject, 2);
    expect(mails).toHaveLength(2);
    for (const mail of mails) {
      expect(
        mail.at * 1000,
        `${mail.destination.to[0]} taken at ${new Date(mail.at * 1000).toISOString()}, scheduled at ${new Date(at).toISOString()}`,
      ).toBeGreaterThanOrEqual(at);
    }
  }, 60_000);
});
