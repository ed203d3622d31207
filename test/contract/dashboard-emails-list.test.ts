import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { recordClick, recordOpen } from '@mailstack/core/domain/tracking/record';
import { TOO_SOON_MS } from '@mailstack/core/domain/tracking/classify';
import { launchBrowser, openPage, IN_BROWSER } from '../support/browser.ts';
import { sendingTeam } from '../support/sending.ts';
import { testDeps } from '../support/local.ts';
import { emailReaches } from '../support/wait.ts';
import { dashboardUrl, look as lookAt, personIn } from '../support/dashboard.ts';

const HUMAN =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

/**
 * The emails list in headless Chromium: each email's badge and the status filter follow the API's
 * `last_event` (a person's open or click included), and the pager reaches every email once.
 */
describe('the emails list in a browser', IN_BROWSER, () => {
  let browser: Browser;
  const violations: string[] = [];
  const look = (p: Page, name: string) => lookAt(p, name, violations);

  /** A page signed in as an owner of the team, on its emails list. */
  const signedIn = async (teamId: string): Promise<Page> => {
    const page = await openPage(browser);
    await page.goto((await personIn(teamId, 'owner')).link);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${dashboardUrl()}/t/${teamId}/`);
    return page;
  };

  /** The listed rows as [badge, subject]. */
  const rows = async (page: Page): Promise<[string, string][]> =>
    Promise.all(
      (await page.locator('main tbody tr').all()).map(
        async (tr): Promise<[string, string]> => [
          (await tr.locator('.badge').textContent()) ?? '',
          (await tr.locator('a').textContent()) ?? '',
        ],
      ),
    );

  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it("shows an opened and a clicked email as the API's last_event does, and the status filter finds each", async () => {
    // Prepare: three delivered emails; a person opens the first and clicks a link of the second.
    const t = await sendingTeam();
    const run = randomUUID().slice(0, 8);
    const subjects = { opened: `Opened ${run}`, clicked: `Clicked ${run}`, delivered: `Delivered ${run}` };
    const ids: Record<string, string> = {};
    for (const [outcome, subject] of Object.entries(subjects)) {
      const sent = await t.resend.emails.send({ from: t.from, to: 'delivered@resend.dev', subject, text: 'x' });
      expect(sent.error).toBeNull();
      ids[outcome] = sent.data!.id;
    }
    for (const id of Object.values(ids)) await emailReaches(t.resend, id, ['delivered']);
    // A person's fetch, past the too-soon window after sending (a moved clock, not a wait).
    const later = { ...testDeps(), clock: { now: () => Date.now() + TOO_SOON_MS + 60_000 } };
    const who = { ipAddress: '127.0.0.1', userAgent: HUMAN };
    await recordOpen(later, { kind: 'o', teamId: t.team.id, emailId: ids.opened! }, who);
    await recordClick(
      later,
      { kind: 'c', teamId: t.team.id, emailId: ids.clicked!, url: 'https://example.com/a' },
      who,
    );
    expect((await t.resend.emails.get(ids.opened!)).data!.last_event).toBe('opened');
    expect((await t.resend.emails.get(ids.clicked!)).data!.last_event).toBe('clicked');
    expect((await t.resend.emails.get(ids.delivered!)).data!.last_event).toBe('delivered');
    const page = await signedIn(t.team.id);
    const list = `${dashboardUrl()}/t/${t.team.id}/emails`;

    // Act and assess: every badge, then each status through the form.
    await page.goto(list);
    expect((await rows(page)).sort()).toEqual(
      [
        ['opened', subjects.opened],
        ['clicked', subjects.clicked],
        ['delivered', subjects.delivered],
      ].sort(),
    );
    await look(page, 'emails-engagement');
    for (const status of ['opened', 'clicked', 'delivered'] as const) {
      await page.getByLabel('Status').selectOption(status);
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL(new RegExp(`status=${status}`));
      expect(await rows(page)).toEqual([[status, subjects[status]]]);
    }
    await look(page, 'emails-filtered');
    expect(violations).toEqual([]);
  }, 90_000);

  it('reaches each of 59 emails exactly once through the pager: 50, then 9 and no further page', async () => {
    // Prepare: 59 emails in one batch.
    const t = await sendingTeam();
    const run = randomUUID().slice(0, 8);
    const subjects = Array.from({ length: 59 }, (_, n) => `Pager ${run} ${String(n).padStart(2, '0')}`);
    const batch = await t.resend.batch.send(
      subjects.map((subject) => ({ from: t.from, to: 'delivered@resend.dev', subject, text: 'x' })),
    );
    expect(batch.error).toBeNull();
    const page = await signedIn(t.team.id);

    // Act
    await page.goto(`${dashboardUrl()}/t/${t.team.id}/emails`);
    const first = (await rows(page)).map(([, subject]) => subject);
    const pager = page.getByRole('link', { name: 'Older emails' });
    expect(await pager.count()).toBe(1);
    await look(page, 'emails-first-page');
    await pager.click();
    await page.waitForURL(/after=/);
    const second = (await rows(page)).map(([, subject]) => subject);

    // Assess: nothing skipped, nothing twice, no pager past the last email.
    expect(first).toHaveLength(50);
    expect(second).toHaveLength(9);
    expect([...first, ...second].sort()).toEqual(subjects);
    expect(await page.getByRole('link', { name: 'Older emails' }).count()).toBe(0);
    expect(violations).toEqual([]);
  }, 90_000);
});
