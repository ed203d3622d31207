import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, IN_BROWSER } from '../support/browser.ts';
import { newTeam } from '../support/local.ts';
import { dashboardUrl, look as lookAt, personIn, reloadUntil } from '../support/dashboard.ts';
import { waitFor } from '../support/wait.ts';

/**
 * The request logs in the dashboard, in headless Chromium: the list with its filters, one
 * request's page with its bodies shown as text (a body holding markup renders none), and another
 * team's log refused. Every page is checked with axe-core and photographed at 1280 and 390 px.
 */
describe('dashboard request logs in a browser', IN_BROWSER, () => {
  let browser: Browser;
  let page: Page;
  let t: Awaited<ReturnType<typeof newTeam>>;
  let base = '';
  const violations: string[] = [];
  const look = (p: Page, name: string) => lookAt(p, name, violations);
  const subject = '<script>window.injected = 1</script><b>bold</b>';

  beforeAll(async () => {
    t = await newTeam();
    base = `${dashboardUrl()}/t/${t.team.id}`;
    browser = await launchBrowser();
    page = await openPage(browser);
    await page.goto((await personIn(t.team.id, 'owner')).link);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/t\/[0-9a-f-]{36}\/$/);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('lists the requests newest first, filters them, and shows a refused send with its bodies as text', async () => {
    // Prepare: a listing and a refused send whose subject is markup.
    await t.resend.domains.list();
    const refused = await t.resend.emails.send({ from: 'nobody', to: 'a@example.com', subject, text: 'x' });
    expect(refused.error).toMatchObject({ statusCode: 422 });

    // Act: the logs page from the navigation, until both requests are listed.
    await page.goto(`${base}/`);
    await page.getByRole('link', { name: 'Logs' }).click();
    await page.waitForURL(/\/logs$/);
    const rows = await reloadUntil(
      page,
      async (p) => p.locator('tbody tr').allTextContents(),
      (all) => all.some((r) => r.includes('/emails')) && all.some((r) => r.includes('/domains')),
      'the two requests listed',
    );
    expect(rows.findIndex((r) => r.includes('/emails'))).toBeLessThan(rows.findIndex((r) => r.includes('/domains')));
    expect(await page.getAttribute('nav a[href$="/logs"]', 'aria-current')).toBe('page');
    await look(page, 'logs');

    // Filters: refused requests only, then a method.
    await page.getByLabel('Status').selectOption('4xx');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=4xx/);
    const refusedRows = await page.locator('tbody tr').allTextContents();
    expect(refusedRows).toHaveLength(1);
    expect(refusedRows[0]).toContain('422');
    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('Method').selectOption('GET');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/method=GET/);
    expect((await page.locator('tbody tr').allTextContents()).every((r) => !r.includes('/emails'))).toBe(true);

    // Assess: the refused send's page shows what was sent and answered, as text.
    await page.goto(`${base}/logs?status=4xx`);
    await page.getByRole('link', { name: '/emails' }).click();
    await page.waitForURL(/\/logs\/[0-9a-f-]{36}$/);
    expect(await page.textContent('h1')).toBe('POST /emails');
    const main = (await page.textContent('main')) ?? '';
    expect(main).toContain(subject);
    expect(main).toContain('validation_error');
    expect(await page.locator('main b').count()).toBe(0);
    expect(await page.evaluate('window.injected')).toBeUndefined();
    await look(page, 'log-detail');
  }, 60_000);

  it("answers 404 for another team's log", async () => {
    const other = await newTeam();
    await other.resend.domains.list();
    const [theirs] = await waitFor(
      async () => (await other.resend.logs.list()).data?.data ?? [],
      (all) => all.length > 0,
      { what: "the other team's log" },
    );
    const gone = await page.goto(`${base}/logs/${theirs!.id}`);
    expect(gone!.status()).toBe(404);
  }, 30_000);

  it('has no serious or critical accessibility violation on any page visited', () => {
    expect(violations).toEqual([]);
  });
});
