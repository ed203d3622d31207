import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, IN_BROWSER, STEP_TIMEOUT_MS } from '../support/browser.ts';
import { dashboardUrl, look as lookAt, personIn, reloadUntil } from '../support/dashboard.ts';
import { sendingTeam } from '../support/sending.ts';
import { startReceiver } from '../support/receiver.ts';

/**
 * The webhook form's event checkboxes and the delivery log in headless Chromium: events chosen
 * one by one and by group are exactly what the API then lists for the endpoint, "All events"
 * works without the script, and the log names the email of each delivery with its attempts, its
 * next retry and a status filter. Each page is checked with axe-core at 1280 and 390 px.
 */
describe('webhook events and deliveries in a browser', IN_BROWSER, () => {
  let browser: Browser;
  let page: Page;
  let t: Awaited<ReturnType<typeof sendingTeam>>;
  let base = '';
  const violations: string[] = [];
  const look = (p: Page, name: string) => lookAt(p, name, violations);

  /** Signs a page in as a new owner of the team. */
  const signIn = async (p: Page) => {
    await p.goto((await personIn(t.team.id, 'owner')).link);
    await p.getByRole('button', { name: 'Continue' }).click();
    await p.waitForURL(/\/t\/[0-9a-f-]{36}\/$/);
  };
  /** The endpoint the SDK lists for a URL. */
  const listed = async (endpoint: string) => {
    const { data, error } = await t.resend.webhooks.list();
    expect(error).toBeNull();
    return data!.data.find((w) => w.endpoint === endpoint);
  };

  beforeAll(async () => {
    t = await sendingTeam();
    base = `${dashboardUrl()}/t/${t.team.id}`;
    browser = await launchBrowser();
    page = await openPage(browser);
    await signIn(page);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('creates an endpoint with the events ticked one by one and by group: the API lists exactly them', async () => {
    // Prepare
    await page.goto(`${base}/webhooks`);
    const endpoint = 'http://127.0.0.1:9/chosen';
    await look(page, 'webhooks-event-picker');
    const contactEvents = await page
      .getByRole('group', { name: 'contact', exact: true })
      .locator('input[name^="event:"]')
      .evaluateAll((boxes) => boxes.map((b) => (b as any).name.slice('event:'.length) as string));
    expect(contactEvents.length).toBeGreaterThan(1);

    // Act: the group box ticks its events (the script), one event of it is unticked again, two more are ticked.
    await page.getByLabel('Endpoint URL').fill(endpoint);
    await page.getByRole('checkbox', { name: 'Every contact event' }).check();
    expect(await page.getByRole('checkbox', { name: contactEvents[0]!, exact: true }).isChecked()).toBe(true);
    await page.getByRole('checkbox', { name: contactEvents[0]!, exact: true }).uncheck();
    expect(await page.getByRole('checkbox', { name: 'Every contact event' }).isChecked()).toBe(false);
    await page.getByRole('checkbox', { name: 'email.bounced', exact: true }).check();
    await page.getByRole('checkbox', { name: 'domain.created', exact: true }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.waitForLoadState();

    // Assess
    expect(await page.textContent('main .secret code')).toMatch(/^whsec_/);
    const w = await listed(endpoint);
    expect([...w!.events!].sort()).toEqual(['email.bounced', 'domain.created', ...contactEvents.slice(1)].sort());
    await look(page, 'webhooks-created-with-events');
  }, 60_000);

  it('refuses an endpoint with no event ticked, showing the form again with the URL typed', async () => {
    // Prepare
    await page.goto(`${base}/webhooks`);
    // Act
    await page.getByLabel('Endpoint URL').fill('http://127.0.0.1:9/none');
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Add endpoint' }).click(),
    ]);
    await page.waitForLoadState();
    // Assess
    expect(answer.status()).toBe(422);
    expect(await page.getByRole('alert').textContent()).toContain('must name at least one event type');
    expect(await page.getByLabel('Endpoint URL').inputValue()).toBe('http://127.0.0.1:9/none');
    expect(await listed('http://127.0.0.1:9/none')).toBeUndefined();
  }, 60_000);

  it('"All events" subscribes to every event the form offers, without the script', async () => {
    // Prepare: a browser context with scripts off.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    const plain = await context.newPage();
    try {
      await signIn(plain);
      await plain.goto(`${base}/webhooks`);
      const offered = await plain
        .locator('main form input[name^="event:"]')
        .evaluateAll((boxes) => boxes.map((b) => (b as any).name.slice('event:'.length) as string));
      // Act
      await plain.getByLabel('Endpoint URL').fill('http://127.0.0.1:9/all');
      await plain.getByRole('checkbox', { name: /^All events/ }).check();
      await plain.getByRole('button', { name: 'Add endpoint' }).click();
      await plain.waitForLoadState();
      // Assess: no box but "All events" was ticked (no script ran), and the endpoint has them all.
      expect(await plain.getByRole('checkbox', { name: 'email.sent', exact: true }).isChecked()).toBe(false);
      const w = await listed('http://127.0.0.1:9/all');
      expect([...w!.events!].sort()).toEqual([...offered].sort());
      expect(await plain.textContent('main tbody')).toContain(`All events (${offered.length})`);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('names the email of each delivery, with its attempts and next retry, and filters the log by status', async () => {
    // Prepare: an endpoint that always answers 503, for email.sent.
    const rx = await startReceiver(() => ({ status: 503, body: 'down' }));
    try {
      await page.goto(`${base}/webhooks`);
      await page.getByLabel('Endpoint URL').fill(rx.url);
      await page.getByRole('checkbox', { name: 'email.sent', exact: true }).check();
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await page.getByRole('link', { name: rx.url }).click();
      const endpointPath = new URL(page.url()).pathname;

      // Act
      const sent = await t.resend.emails.send({
        from: t.from,
        to: 'delivered@resend.dev',
        subject: 'Hooked subject',
        text: 'x',
      });
      expect(sent.error).toBeNull();
      await rx.waitFor(1, 20_000);
      const row = page.locator('main tbody tr');
      await reloadUntil(
        page,
        async (p) => (await p.textContent('main')) ?? '',
        (text) => text.includes('pending') && text.includes('Hooked subject'),
        'the delivery shown as pending',
      );

      // Assess: the row names and links the email, counts the failed attempt, says when it is tried again.
      const cells = await row.first().locator('td').allTextContents();
      expect(cells[1]).toBe('email.sent');
      expect(cells[2]).toContain('to delivered@resend.dev');
      expect(cells[4]).toBe('pending');
      expect(Number(cells[5])).toBeGreaterThanOrEqual(1);
      expect(cells[6]).toMatch(/\(in /);
      expect(await row.first().getByRole('link', { name: 'Hooked subject' }).getAttribute('href')).toBe(
        `/t/${t.team.id}/emails/${sent.data!.id}`,
      );
      await look(page, 'webhook-deliveries-pending');

      // Act: the status filter
      await page.getByLabel('Status').selectOption('success');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL(/status=success/);
      // Assess
      expect(await page.textContent('main')).toContain('No delivery is success.');
      await page.goto(`${dashboardUrl()}${endpointPath}?status=pending`);
      expect(await page.locator('main tbody tr').count()).toBe(1);
      await look(page, 'webhook-deliveries-filtered');
    } finally {
      await rx.close();
    }
  }, 90_000);

  it('has no serious or critical accessibility violation on any page visited', () => {
    expect(violations).toEqual([]);
  });
});
