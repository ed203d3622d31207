import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, IN_BROWSER } from '../support/browser.ts';
import { local, newTeam, testDeps } from '../support/local.ts';
import { dashboardUrl, look as lookAt, personIn } from '../support/dashboard.ts';
import { getDomain } from '@mailstack/core/domain/domains/domain-verification';

/**
 * Domains and API keys in headless Chromium, beyond the main journey: the region chosen when a
 * domain is added, its tracking switches, deleting it; a full-access key and a key restricted to
 * one domain, minted on the keys page and used with the SDK. Each page is checked with axe-core
 * and photographed at 1280 and 390 px.
 */
describe('domains and API keys in a browser', IN_BROWSER, () => {
  let browser: Browser;
  let page: Page;
  let base = '';
  let teamId = '';
  const run = randomUUID().slice(0, 8);
  const names = { a: `a${run}.example.com`, b: `b${run}.example.com`, gone: `gone${run}.example.com` };
  const ids: Record<keyof typeof names, string> = { a: '', b: '', gone: '' };
  const violations: string[] = [];
  const look = (p: Page, name: string) => lookAt(p, name, violations);
  const sdk = (secret: string) => {
    process.env.RESEND_BASE_URL = local().baseUrl;
    return new Resend(secret);
  };

  /** Adds a domain in the region offered first, and verifies it; its id. */
  const addDomain = async (name: string, verify = true): Promise<string> => {
    await page.goto(`${base}/domains`);
    await page.getByLabel('Domain').fill(name);
    const region = await page.getByLabel('Region').inputValue();
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.waitForURL(/\/domains\/[0-9a-f-]{36}\?notice=created$/);
    expect(await page.textContent('main .card')).toContain(`Region: ${region}`);
    const id = new URL(page.url()).pathname.split('/').pop()!;
    expect((await getDomain(testDeps(), teamId, id)).region).toBe(region);
    if (verify) {
      await page.getByRole('button', { name: 'Verify DNS records' }).click();
      await page.waitForURL(/notice=verified$/);
    }
    return id;
  };

  beforeAll(async () => {
    // The pro plan allows more than one domain.
    teamId = (await newTeam({ plan: 'pro' })).team.id;
    base = `${dashboardUrl()}/t/${teamId}`;
    browser = await launchBrowser();
    page = await openPage(browser);
    await page.goto((await personIn(teamId, 'owner')).link);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(new RegExp(`/t/${teamId}/$`));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('adds a domain in the chosen region, switches its open and click tracking, and deletes another', async () => {
    // Prepare
    ids.a = await addDomain(names.a);
    const open = page.getByLabel('Open tracking');
    const click = page.getByLabel('Click tracking');
    expect([await open.isChecked(), await click.isChecked()]).toEqual([false, false]);

    // Act: both on
    await open.check();
    await click.check();
    await page.getByRole('button', { name: 'Save tracking' }).click();
    await page.waitForURL(/notice=saved$/);

    // Assess
    expect([await open.isChecked(), await click.isChecked()]).toEqual([true, true]);
    expect(await getDomain(testDeps(), teamId, ids.a)).toMatchObject({ openTracking: true, clickTracking: true });
    await look(page, 'domain-tracking');

    // Act: open tracking off again
    await open.uncheck();
    await page.getByRole('button', { name: 'Save tracking' }).click();
    await page.waitForURL(/notice=saved$/);
    expect(await getDomain(testDeps(), teamId, ids.a)).toMatchObject({ openTracking: false, clickTracking: true });

    // Act: delete
    ids.gone = await addDomain(names.gone, false);
    await page.getByRole('button', { name: 'Delete domain' }).click();
    await page.waitForURL(/\/domains\?notice=deleted$/);
    expect(await page.textContent('main')).toContain(names.a);
    expect(await page.textContent('main')).not.toContain(names.gone);
    await expect(getDomain(testDeps(), teamId, ids.gone)).rejects.toMatchObject({ statusCode: 404 });
  }, 90_000);

  it("mints a full-access key that manages the team's resources, and a key restricted to one domain that sends only from it", async () => {
    // Prepare
    ids.b = await addDomain(names.b);
    const mint = async (name: string, permission: 'full_access' | 'sending_access', domain: string) => {
      await page.goto(`${base}/api-keys`);
      await page.getByLabel('Name').fill(name);
      await page.getByLabel('Permission').selectOption(permission);
      await page.getByLabel(/^Domain/).selectOption({ label: domain });
      await page.getByRole('button', { name: 'Create key' }).click();
      return (await page.textContent('#new-key')) ?? '';
    };

    // Act
    const full = await mint(`Full ${run}`, 'full_access', 'All domains');
    const restricted = await mint(`Only A ${run}`, 'sending_access', names.a);
    // A name of the full 100 characters makes the key tables scroll sideways: keyboard users must reach them (axe).
    await mint('k'.repeat(100), 'sending_access', 'All domains');

    // Assess: the list shows each key's permission and domain.
    await page.goto(`${base}/api-keys`);
    const row = async (name: string) =>
      page
        .locator('tbody tr', { has: page.locator('td', { hasText: new RegExp(`^${name}$`) }) })
        .locator('td')
        .allTextContents();
    expect((await row(`Full ${run}`)).slice(0, 3)).toEqual([`Full ${run}`, 'full_access', 'all']);
    expect((await row(`Only A ${run}`)).slice(0, 3)).toEqual([`Only A ${run}`, 'sending_access', names.a]);
    await look(page, 'api-keys-scoped');
    // The full-access key reads the team's domains; the restricted one may not.
    const listed = await sdk(full).domains.list();
    expect(listed.error).toBeNull();
    expect(listed.data!.data.map((d) => d.name).sort()).toEqual([names.a, names.b].sort());
    expect((await sdk(restricted).domains.list()).error).toMatchObject({ statusCode: 403, name: 'restricted_api_key' });
    // The restricted key sends from its domain only.
    const fromA = await sdk(restricted).emails.send({
      from: `hello@${names.a}`,
      to: 'delivered@resend.dev',
      subject: 'From A',
      text: 'a',
    });
    expect(fromA.error).toBeNull();
    const fromB = await sdk(restricted).emails.send({
      from: `hello@${names.b}`,
      to: 'delivered@resend.dev',
      subject: 'From B',
      text: 'b',
    });
    expect(fromB.error).toMatchObject({ statusCode: 403, name: 'restricted_api_key' });
    const fullFromB = await sdk(full).emails.send({
      from: `hello@${names.b}`,
      to: 'delivered@resend.dev',
      subject: 'From B with the full key',
      text: 'b',
    });
    expect(fullFromB.error).toBeNull();
  }, 90_000);

  it('has no serious or critical accessibility violation on any page visited', () => {
    expect(violations).toEqual([]);
  });
});
