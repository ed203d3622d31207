import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, IN_BROWSER } from '../support/browser.ts';
import { sendingTeam } from '../support/sending.ts';
import { emailReaches } from '../support/wait.ts';
import { dashboardUrl, look as lookAt, personIn, reloadUntil } from '../support/dashboard.ts';

/**
 * The overview's volume and deliverability charts in headless Chromium after a scripted mix (two
 * deliveries, a hard bounce, a complaint): drawn on the server from the email metrics, with the
 * figures in a table, a 7/30-day toggle, axe-clean and photographed at 1280 and 390 px.
 */
describe('the overview charts in a browser', IN_BROWSER, () => {
  let browser: Browser;
  let page: Page;
  let base = '';
  const violations: string[] = [];
  const look = (p: Page, name: string) => lookAt(p, name, violations);

  beforeAll(async () => {
    const t = await sendingTeam();
    const ids: string[] = [];
    for (const to of ['delivered@resend.dev', 'delivered@resend.dev', 'bounced@resend.dev', 'complained@resend.dev']) {
      const out = await t.resend.emails.send({ from: t.from, to, subject: 'Chart', text: 'x' });
      expect(out.error).toBeNull();
      ids.push(out.data!.id);
    }
    for (const [i, id] of ids.entries())
      await emailReaches(t.resend, id, [i === 2 ? 'bounced' : i === 3 ? 'complained' : 'delivered']);
    base = `${dashboardUrl()}/t/${t.team.id}/`;
    browser = await launchBrowser();
    page = await openPage(browser);
    await page.goto((await personIn(t.team.id, 'owner')).link);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(base);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
  });

  const today = () => new Date().toISOString().slice(0, 10);
  const todayRow = (p: Page) => p.locator('tbody tr', { hasText: today() }).locator('td').allTextContents();

  it("draws the mix's volume and rates, with every figure in the table", async () => {
    const row = await reloadUntil(
      page,
      todayRow,
      (cells) => cells[1] === '4' && cells[4] === '1',
      "today's counts on the overview",
    );
    expect(row).toEqual([today(), '4', '3', '1', '1', '0', '0', '25%', '33.33%']);
    expect(await page.locator('tbody tr').count()).toBe(30);
    expect(await page.textContent('#volume-title')).toMatch(/last 30 days: 4 sent, 3 delivered, 0 opened, 0 clicked/);
    expect(await page.textContent('#rates-title')).toMatch(/bounce rate at most 25%, complaint rate at most 33\.33%/);
    expect(await page.locator('svg.chart rect title', { hasText: `${today()}: 4 sent` }).count()).toBe(1);
    // Server-drawn: no inline script under the CSP.
    expect(await page.evaluate('document.querySelectorAll("script:not([src])").length')).toBe(0);
    expect(await page.getByRole('link', { name: '30 days' }).getAttribute('aria-current')).toBe('true');
    await page.locator('details summary').click();
    await look(page, 'overview-charts');
  }, 60_000);

  it('switches to the last 7 days with a link', async () => {
    await page.getByRole('link', { name: '7 days' }).click();
    await page.waitForURL(`${base}?days=7`);
    expect(await page.textContent('h2')).toBe('Emails, last 7 days');
    expect(await page.locator('tbody tr').count()).toBe(7);
    expect(await todayRow(page)).toEqual([today(), '4', '3', '1', '1', '0', '0', '25%', '33.33%']);
    expect(await page.getByRole('link', { name: '7 days' }).getAttribute('aria-current')).toBe('true');
    await look(page, 'overview-charts-7-days');
    expect(violations).toEqual([]);
  }, 60_000);
});
