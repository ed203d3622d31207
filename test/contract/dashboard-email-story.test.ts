import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { sendingTeam } from '../support/sending.ts';
import { launchBrowser, openPage, IN_BROWSER } from '../support/browser.ts';
import { dashboardUrl, look, personIn } from '../support/dashboard.ts';
import { inboxMail } from '../support/inbox.ts';
import { emailReaches, waitFor } from '../support/wait.ts';

const HUMAN =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

/**
 * An email's story on its page, in Chromium: the bounce's type and the receiving server's reply,
 * the complaint's type, the link a person clicked with their user agent and the machine fetches
 * marked apart, tags, Reply-To and Cc; a scheduled email's reason to wait, rescheduled and
 * canceled from the page through the same use cases as the API. Axe-clean at 1280 and 390 px.
 */
describe('an email’s story on the dashboard', IN_BROWSER, () => {
  let t: Awaited<ReturnType<typeof sendingTeam>>;
  let browser: Browser;
  let page: Page;
  const run = randomUUID().slice(0, 8);
  const ids = { bounced: '', clicked: '', complained: '', scheduled: '' };
  const violations: string[] = [];
  const open = async (id: string) => {
    await page.goto(`${dashboardUrl()}/t/${t.team.id}/emails/${id}`);
    return (await page.textContent('main')) ?? '';
  };

  beforeAll(async () => {
    t = await sendingTeam();
    await t.resend.domains.update({ id: t.domainId, openTracking: true, clickTracking: true });
    const send = async (to: string, subject: string, extra: Record<string, unknown> = {}) => {
      const sent = await t.resend.emails.send({ from: t.from, to, subject, html: '<p>Hello</p>', ...extra } as never);
      expect(sent.error).toBeNull();
      return sent.data!.id;
    };
    ids.bounced = await send('bounce@simulator.amazonses.com', `Bounce ${run}`, {
      cc: 'copy@example.com',
      replyTo: 'support@example.com',
      tags: [{ name: 'campaign', value: 'spring' }],
    });
    ids.complained = await send('complaint@simulator.amazonses.com', `Complaint ${run}`);
    ids.clicked = await send('delivered@resend.dev', `Click ${run}`, {
      html: '<p>See <a href="https://example.com/offer">the offer</a></p>',
    });
    await emailReaches(t.resend, ids.bounced, ['bounced']);
    await emailReaches(t.resend, ids.complained, ['complained']);
    // A person's click: fetches in the first seconds after sending are a machine's (recorded as
    // prefetched); the link is followed until the email reads clicked.
    const mail = await inboxMail(`Click ${run}`, 30_000);
    const link = /href="([^"]+\/t\/c\/[^"]+)"/.exec(mail.body.html)![1]!;
    await waitFor(
      async () => {
        await fetch(link, { headers: { 'user-agent': HUMAN }, redirect: 'manual' });
        return (await t.resend.emails.get(ids.clicked)).data?.last_event;
      },
      (last) => last === 'clicked',
      { what: 'a person’s click recorded', everyMs: 500 },
    );
    browser = await launchBrowser();
    page = await openPage(browser);
    await page.goto((await personIn(t.team.id, 'admin')).link);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/t\/[0-9a-f-]{36}\/$/);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('shows a bounce with its type and the receiving server’s reply, and the envelope: Cc, Reply-To, tags', async () => {
    const text = await open(ids.bounced);
    const bounce = page.locator('ol.timeline li.problem', { hasText: 'Bounced' });

    expect(await bounce.count()).toBe(1);
    expect(await bounce.textContent()).toContain('Problem');
    expect(await bounce.textContent()).toContain('Permanent');
    expect(await bounce.textContent()).toContain('smtp; 550 5.1.1 user unknown');
    expect(text).toContain('copy@example.com');
    expect(text).toContain('support@example.com');
    expect(text).toContain('campaign: spring');
    expect(text).toContain('the API');
    expect(await page.locator('time[datetime]').count()).toBeGreaterThan(2);
    expect(await page.frameLocator('iframe.preview').locator('p').textContent()).toBe('Hello');
    await look(page, 'email-story-bounced', violations);
  }, 60_000);

  it('shows a complaint with its type', async () => {
    await open(ids.complained);
    const complaint = page.locator('ol.timeline li.problem', { hasText: 'Marked as spam' });

    expect(await complaint.textContent()).toContain('Complaint type');
    expect(await complaint.textContent()).toContain('abuse');
  }, 60_000);

  it('shows the link a person clicked with their user agent, and machine fetches marked apart', async () => {
    await open(ids.clicked);
    const click = page.locator('ol.timeline li.good', { hasText: 'Link clicked' });
    const machine = page.locator('ol.timeline li.note', { hasText: 'Fetched by a machine' });

    expect(await click.count()).toBeGreaterThanOrEqual(1);
    expect(await click.first().textContent()).toContain('https://example.com/offer');
    expect(await click.first().textContent()).toContain(HUMAN);
    expect(await machine.count()).toBeGreaterThanOrEqual(1);
    expect(await machine.first().textContent()).toContain('Why not counted');
    await look(page, 'email-story-clicked', violations);
  }, 60_000);

  it('says why a scheduled email waits, reschedules it and cancels it from the page', async () => {
    const later = await t.resend.emails.send({
      from: t.from,
      to: 'later@example.com',
      subject: `Later ${run}`,
      text: 'Later',
      scheduledAt: 'in 2 hours',
    });
    ids.scheduled = later.data!.id;
    const text = await open(ids.scheduled);
    expect(text).toContain('Why it waits');
    expect(text).toContain('Scheduled: it goes out');
    await look(page, 'email-story-scheduled', violations);

    const at = new Date(Date.now() + 5 * 3600_000).toISOString().slice(0, 19);
    await page.getByLabel(/New send time/).fill(`${at}Z`);
    await page.getByRole('button', { name: 'Reschedule' }).click();
    await page.waitForURL(/notice=rescheduled/);
    const moved = (await t.resend.emails.get(ids.scheduled)).data!;
    await page.getByRole('button', { name: 'Cancel this scheduled email' }).click();
    await page.waitForURL(/notice=email-canceled/);
    const canceled = (await t.resend.emails.get(ids.scheduled)).data!;

    expect(Date.parse(moved.scheduled_at!)).toBe(Date.parse(`${at}Z`));
    expect(canceled.last_event).toBe('canceled');
    expect(await page.locator('main .badge').first().textContent()).toBe('canceled');
    expect(await page.getByRole('button', { name: 'Cancel this scheduled email' }).count()).toBe(0);
    expect(violations).toEqual([]);
  }, 60_000);

  it('says in words why an email held for review waits', async () => {
    const held = await t.resend.emails.send({
      from: t.from,
      to: 'ann@example.com',
      subject: 'Your bank account has been locked',
      text: 'Verify now',
    });

    const text = await open(held.data!.id);

    expect((await t.resend.emails.get(held.data!.id)).data!.last_event).toBe('queued');
    expect(text).toContain('Why it waits: Held for review');
    expect(await page.locator('main .badge').first().textContent()).toBe('queued');
  }, 60_000);
});
