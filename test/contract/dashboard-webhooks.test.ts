import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { launchBrowser, openPage, IN_BROWSER } from '../support/browser.ts';
import { newTeam, testDeps } from '../support/local.ts';
import { dashboardUrl, look as lookAt, personIn, reloadUntil } from '../support/dashboard.ts';
import { startReceiver } from '../support/receiver.ts';
import { getWebhook } from '@mailstack/core/domain/webhooks/webhook';

/** Verifies a request the receiver got with a signing secret (throws when the signature does not match). */
const verify = (secret: string, r: { body: string; headers: Record<string, unknown> }) =>
  new Webhook(secret).verify(
    r.body,
    Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(r.headers[h])])),
  );

/**
 * A webhook endpoint's life in the dashboard, in headless Chromium against a real HTTP receiver:
 * the delivery log with its attempts and payload, replay, secret rotation, edit and delete. Every
 * page is checked with axe-core and photographed at 1280 and 390 px.
 */
describe('dashboard webhooks in a browser', IN_BROWSER, () => {
  let browser: Browser;
  let page: Page;
  let t: Awaited<ReturnType<typeof newTeam>>;
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  let base = '';
  let endpointPath = '';
  let eventPath = '';
  let secret = '';
  const violations: string[] = [];
  const look = (p: Page, name: string) => lookAt(p, name, violations);

  beforeAll(async () => {
    t = await newTeam();
    base = `${dashboardUrl()}/t/${t.team.id}`;
    // The first delivery attempt fails (503); the engine's retry 5 s later and any replay succeed.
    rx = await startReceiver((_r, n) =>
      n === 1 ? { status: 503, body: 'down for maintenance' } : { status: 200, body: 'thanks' },
    );
    browser = await launchBrowser();
    page = await openPage(browser);
    await page.goto((await personIn(t.team.id, 'owner')).link);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/t\/[0-9a-f-]{36}\/$/);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await rx?.close();
  });

  it('adds an endpoint; an event it subscribes to shows in its delivery log, with each attempt, the payload, and a working signature', async () => {
    // Prepare
    await page.goto(`${base}/webhooks`);
    await page.getByLabel('Endpoint URL').fill(rx.url);
    await page.getByRole('checkbox', { name: 'contact.created', exact: true }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    secret = (await page.textContent('main .secret code')) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('link', { name: rx.url }).click();
    endpointPath = new URL(page.url()).pathname;
    expect(await page.textContent('main')).toContain('Nothing delivered yet.');

    // Act
    const contact = await t.resend.contacts.create({ email: 'webhook-page@example.com' });
    expect(contact.error).toBeNull();
    await rx.waitFor(2, 20_000);
    await reloadUntil(
      page,
      async (p) => ((await p.locator('main tbody').count()) ? ((await p.textContent('main tbody')) ?? '') : ''),
      (text) => /contact\.created.*success/s.test(text),
      'the delivery shown as success',
    );

    // Assess: the log lists the event; its page has both attempts, newest first, and the payload sent.
    const row = page.locator('main tbody tr');
    expect(await row.count()).toBe(1);
    expect(await row.locator('td').nth(1).textContent()).toBe('contact.created');
    const eventId = (await row.locator('td').first().textContent())!;
    await look(page, 'webhook-delivery-log');
    await page.getByRole('link', { name: eventId }).click();
    eventPath = new URL(page.url()).pathname;
    expect(eventPath).toBe(`${endpointPath}/events/${eventId}`);
    expect(await page.textContent('h1')).toBe(`Delivery ${eventId}`);
    expect(await page.textContent('main .card')).toContain(String(rx.received[0]!.headers['webhook-id']));
    const attempts = await page
      .locator('table', { has: page.locator('caption', { hasText: 'Attempts' }) })
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => [...(r as any).cells].slice(1).map((c: any) => c.textContent)));
    expect(attempts).toEqual([
      ['200', 'thanks'],
      ['503', 'down for maintenance'],
    ]);
    expect(JSON.parse((await page.textContent('main pre code'))!)).toEqual(rx.received[0]!.json);
    expect(rx.received[0]!.json).toMatchObject({
      type: 'contact.created',
      data: { id: contact.data!.id, email: 'webhook-page@example.com' },
    });
    // The secret shown once at creation signs the deliveries.
    expect(verify(secret, rx.received[1]!)).toEqual(rx.received[1]!.json);
    await look(page, 'webhook-delivery');
  }, 90_000);

  it('replays the event from its page: the receiver gets it again with the same webhook-id, and the page lists a third attempt', async () => {
    // Prepare
    await page.goto(`${dashboardUrl()}${eventPath}`);
    // Act
    await page.getByRole('button', { name: 'Replay event' }).click();
    await page.waitForURL(/notice=replayed/);
    await rx.waitFor(3);
    // Assess
    expect(rx.received[2]!.headers['webhook-id']).toBe(rx.received[0]!.headers['webhook-id']);
    expect(rx.received[2]!.body).toBe(rx.received[0]!.body);
    const attemptRows = page
      .locator('table', { has: page.locator('caption', { hasText: 'Attempts' }) })
      .locator('tbody tr');
    expect(
      await reloadUntil(
        page,
        () => attemptRows.count(),
        (n) => n >= 3,
        'three delivery attempts',
      ),
    ).toBe(3);
    await look(page, 'webhook-replayed');
  }, 60_000);

  it('rotates the signing secret: the new one is shown once and signs the next delivery, with the old one during the overlap', async () => {
    // Prepare
    await page.goto(`${dashboardUrl()}${endpointPath}`);
    // Act
    await page.getByLabel(/Old secret keeps signing for/).fill('1');
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.waitForURL(new RegExp(`${endpointPath}/rotate$`));
    // Assess
    const rotated = (await page.textContent('main .secret code')) ?? '';
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    expect(await page.textContent('main .card[role="status"]')).toContain('Signing secret rotated.');
    expect(await page.textContent('main .card:not([role])')).toContain('The previous secret also signs until');
    await look(page, 'webhook-rotated');
    await page.goto(`${dashboardUrl()}${endpointPath}`);
    expect(await page.content()).not.toContain(rotated);

    await t.resend.contacts.create({ email: 'after-rotation@example.com' });
    await rx.waitFor(4);
    const next = rx.received[3]!;
    expect(next.json.data.email).toBe('after-rotation@example.com');
    expect(verify(rotated, next)).toEqual(next.json);
    expect(verify(secret, next)).toEqual(next.json);
  }, 60_000);

  it("edits the endpoint's URL and events from its page", async () => {
    // Prepare
    const other = await startReceiver();
    try {
      await page.goto(`${dashboardUrl()}${endpointPath}`);
      // Act
      await page.getByLabel('Endpoint URL').fill(other.url);
      await page.getByRole('checkbox', { name: 'contact.deleted', exact: true }).check();
      await page.getByRole('button', { name: 'Save endpoint' }).click();
      await page.waitForURL(/notice=saved/);
      // Assess
      expect(await page.textContent('main .card')).toContain(other.url);
      expect(await page.textContent('main .card')).toContain('Events: contact.created, contact.deleted');
      expect(await page.getByRole('checkbox', { name: 'contact.deleted', exact: true }).isChecked()).toBe(true);
      const stored = await getWebhook(testDeps(), t.team.id, endpointPath.split('/').pop()!);
      expect(stored).toMatchObject({ endpoint: other.url, events: ['contact.created', 'contact.deleted'] });
      await look(page, 'webhook-edited');
      // The next event goes to the new URL.
      const contact = await t.resend.contacts.create({ email: 'after-edit@example.com' });
      await t.resend.contacts.remove(contact.data!.id);
      await other.waitFor(2);
      expect(other.received.map((r) => r.json.type).sort()).toEqual(['contact.created', 'contact.deleted']);
      expect(rx.received).toHaveLength(4);
    } finally {
      await other.close();
    }
  }, 60_000);

  it('deletes the endpoint from its page: it leaves the list and its pages answer 404', async () => {
    // Prepare
    await page.goto(`${dashboardUrl()}${endpointPath}`);
    // Act
    await page.getByRole('button', { name: 'Delete endpoint' }).click();
    await page.waitForURL(/\/webhooks\?notice=deleted$/);
    // Assess
    expect(await page.textContent('main')).toContain('No endpoints yet');
    await look(page, 'webhooks-after-delete');
    await expect(getWebhook(testDeps(), t.team.id, endpointPath.split('/').pop()!)).rejects.toMatchObject({
      statusCode: 404,
    });
    const gone = await page.goto(`${dashboardUrl()}${endpointPath}`);
    expect(gone!.status()).toBe(404);
    expect(await page.textContent('main')).toContain('not_found');
  }, 60_000);

  it('has no serious or critical accessibility violation on any page visited', () => {
    expect(violations).toEqual([]);
  });
});
