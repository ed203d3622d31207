import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, IN_BROWSER } from '../support/browser.ts';
import { testDeps } from '../support/local.ts';
import { dashboardUrl, look as lookAt, personIn, reloadUntil } from '../support/dashboard.ts';
import { inboxMessageTo } from '../support/inbox.ts';
import { agentMailbox, mx } from '../support/mailboxes.ts';
import { signInLink } from '@mailstack/core/domain/people/sign-in-link';

/**
 * A mailbox's conversation reader in headless Chromium: mail delivered to the local MX shows in
 * the mailbox's threads and activity; the thread opens with each message, its HTML in a sandboxed
 * frame where no script runs; the owner replies from the page and the reply goes out in the
 * thread, as the SDK's `threads.emails.reply` sends it. Each page is checked with axe-core.
 */
describe('reading and answering a mailbox conversation in a browser', IN_BROWSER, () => {
  let browser: Browser;
  let page: Page;
  let t: Awaited<ReturnType<typeof agentMailbox>>;
  const subject = `Need help ${randomUUID().slice(0, 6)}`;
  let threadPath = '';
  const violations: string[] = [];
  const look = (p: Page, name: string) => lookAt(p, name, violations);

  beforeAll(async () => {
    t = await agentMailbox({ localPart: `reader-${randomUUID().slice(0, 6)}` });
    browser = await launchBrowser();
    page = await openPage(browser);
    await page.goto(await signInLink(testDeps(), t.owner));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForLoadState();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('opens a received conversation: each message, its HTML sandboxed without scripts, and the activity records the mail', async () => {
    // Prepare
    await mx().sendMail({
      from: 'Ada <ada@customer.example.org>',
      to: t.m.address,
      subject,
      text: 'Plain words from Ada',
      html: '<p>Hello <b id="bold">from Ada</b></p><script>document.body.setAttribute("data-ran", "yes")</script>',
    });
    await page.goto(`${dashboardUrl()}/t/${t.team.id}/mailboxes/${t.m.id}`);
    await reloadUntil(
      page,
      (p) => p.getByRole('link', { name: subject }).count(),
      (n) => n === 1,
      'the received thread listed',
    );
    const activity = await page
      .locator('table', { has: page.locator('caption', { hasText: 'Mailbox activity' }) })
      .locator('tbody tr')
      .first()
      .locator('td')
      .allTextContents();
    expect(activity[1]).toContain('ada@customer.example.org');
    expect(activity[2]).toMatch(/^received /);
    expect(activity[3]).toBe(subject);
    await look(page, 'mailbox-with-received-thread');

    // Act
    await page.getByRole('link', { name: subject }).click();
    threadPath = new URL(page.url()).pathname;

    // Assess
    expect(await page.textContent('h1')).toBe(subject);
    const message = page.locator('article.message');
    expect(await message.count()).toBe(1);
    expect(await message.locator('h2').textContent()).toContain('ada@customer.example.org');
    const frame = message.locator('iframe.preview');
    expect(await frame.getAttribute('sandbox')).toBe('');
    const body = page.frameLocator('article.message iframe.preview').locator('#bold');
    expect(await body.textContent()).toBe('from Ada');
    expect(
      await page.frameLocator('article.message iframe.preview').locator('body').getAttribute('data-ran'),
    ).toBeNull();
    const htmlAnswer = await page.request.get(`${dashboardUrl()}${threadPath}/emails/${await frameEmailId(page)}/html`);
    expect(htmlAnswer.headers()['content-security-policy']).toMatch(/^sandbox; default-src 'none'/);
    await look(page, 'mailbox-conversation');
  }, 60_000);

  it('replies from the conversation: the reply goes out from the mailbox in the thread, and the page shows it', async () => {
    // Prepare
    await page.goto(`${dashboardUrl()}${threadPath}`);
    // Act
    await page.getByLabel('Message').fill('Thanks Ada, we are on it.');
    await page.getByRole('button', { name: 'Send reply' }).click();
    await page.waitForURL(/notice=sent$/);
    // Assess: the thread holds the reply (through the SDK too), and the provider got it for Ada.
    expect(await page.locator('article.message').count()).toBe(2);
    expect(await page.locator('article.message').nth(1).locator('h2').textContent()).toContain(t.m.address);
    const threads = await t.resend.inboxes.threads.emails.list({
      emailAddress: t.m.address,
      threadId: threadPath.split('/').pop()!,
    });
    expect(threads.data!.data.map((e) => [e.direction, e.subject])).toEqual([
      ['inbound', subject],
      ['outbound', `Re: ${subject}`],
    ]);
    const sent = await inboxMessageTo('ada@customer.example.org', `Re: ${subject}`);
    expect(JSON.stringify(sent)).toContain(t.m.address);
    await look(page, 'mailbox-conversation-replied');
  }, 60_000);

  it('shows a member who neither owns the mailbox nor manages mailboxes the conversation without the reply form', async () => {
    const member = await personIn(t.team.id, 'member');
    const other = await openPage(browser);
    await other.goto(member.link);
    await other.getByRole('button', { name: 'Continue' }).click();
    await other.waitForLoadState();
    await other.goto(`${dashboardUrl()}${threadPath}`);
    expect(await other.locator('article.message').count()).toBe(2);
    expect(await other.getByRole('button', { name: 'Send reply' }).count()).toBe(0);
    expect(await other.textContent('main')).toContain('Only the mailbox');
  }, 60_000);

  it('has no serious or critical accessibility violation on any page visited', () => {
    expect(violations).toEqual([]);
  });
});

/** The id of the message whose HTML the first frame shows (from the frame's address). */
const frameEmailId = async (page: Page) =>
  /\/emails\/([^/]+)\/html$/.exec(
    (await page.locator('article.message iframe.preview').first().getAttribute('src'))!,
  )![1];
