import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, IN_BROWSER } from '../support/browser.ts';
import { local, testDeps } from '../support/local.ts';
import { dashboardUrl, look as lookAt, reloadUntil } from '../support/dashboard.ts';
import { inboxMessageTo } from '../support/inbox.ts';
import { getWebhook } from '@mailstack/core/domain/webhooks/webhook';
import { updateWebhook } from '@mailstack/core/domain/webhooks/update-webhook';

/**
 * The dashboard's main journeys in headless Chromium, in order (one browser, one page per
 * person): the first person signs in from the link `npm start` printed, adds and verifies a
 * domain, mints a sending key and uses it with the SDK, follows the email to delivered, revokes
 * the key, invites a member who signs up from the emailed link, and the member is refused a
 * forbidden action. Every page is checked with axe-core and photographed at 1280 and 390 px.
 */
describe('dashboard in a browser', IN_BROWSER, () => {
  let browser: Browser;
  let owner: Page;
  let teamPath = '';
  const domain = `d${randomUUID().slice(0, 8)}.example.com`;
  const violations: string[] = [];

  /** Checks the page with axe, then photographs it at both widths. */
  const look = (page: Page, name: string) => lookAt(page, name, violations);

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await openPage(browser);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('signs the first person in from the link npm start printed', async () => {
    const link = local().firstSignInLink;
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sign-in\/link\//);
    await owner.goto(`${dashboardUrl()}/sign-in`);
    await look(owner, 'sign-in');
    await owner.goto(link);
    await look(owner, 'sign-in-link');
    await owner.getByRole('button', { name: 'Continue' }).click();
    await owner.waitForURL(/\/t\/[0-9a-f-]{36}\/$/);
    teamPath = new URL(owner.url()).pathname;
    expect(await owner.textContent('h1')).toBe('Overview');
    expect(await owner.textContent('header')).toContain('admin@example.com');
    await look(owner, 'overview');
  }, 60_000);

  it('adds a domain, shows its DNS records with copy buttons, and verifies it', async () => {
    await owner.goto(`${dashboardUrl()}${teamPath}domains`);
    await owner.getByLabel('Domain').fill(domain);
    await owner.getByRole('button', { name: 'Add domain' }).click();
    await owner.waitForURL(/\/domains\/[0-9a-f-]{36}/);
    expect(await owner.textContent('h1')).toBe(domain);
    expect(await owner.getByRole('button', { name: /Copy value of the DKIM CNAME record/ }).count()).toBeGreaterThan(0);
    await owner.getByRole('button', { name: 'Verify DNS records' }).click();
    await owner.waitForURL(/notice=verified/);
    expect(await owner.textContent('main .card')).toContain('verified');
    await look(owner, 'domain-detail');
    await owner.goto(`${dashboardUrl()}${teamPath}domains`);
    await look(owner, 'domains');
  }, 60_000);

  let secret = '';
  it('mints a sending key shown once; the SDK sends with it and the email reaches delivered on the emails page', async () => {
    await owner.goto(`${dashboardUrl()}${teamPath}api-keys`);
    await owner.getByLabel('Name').fill('Browser key');
    await owner.getByLabel('Permission').selectOption('sending_access');
    await owner.getByRole('button', { name: 'Create key' }).click();
    secret = (await owner.textContent('#new-key')) ?? '';
    expect(secret).toMatch(/^ms_/);
    await look(owner, 'api-key-created');
    await owner.goto(`${dashboardUrl()}${teamPath}api-keys`);
    expect(await owner.content()).not.toContain(secret);
    // The audit list names who created it.
    expect(await owner.locator('tr', { hasText: 'Browser key (' }).first().locator('td').allTextContents()).toEqual([
      expect.stringMatching(/UTC$/),
      'admin@example.com',
      'created',
      expect.stringMatching(/^Browser key \(\S+, sending_access\)$/),
    ]);

    process.env.RESEND_BASE_URL = local().baseUrl;
    const resend = new Resend(secret);
    const subject = `Dashboard journey ${randomUUID()}`;
    const sent = await resend.emails.send({
      from: `Acme <hello@${domain}>`,
      to: 'delivered@resend.dev',
      subject,
      html: '<p>Hello <b>there</b></p>',
    });
    expect(sent.error).toBeNull();
    const id = sent.data!.id;

    await owner.goto(`${dashboardUrl()}${teamPath}emails?status=delivered`);
    const main = await reloadUntil(
      owner,
      async (p) => (await p.textContent('main')) ?? '',
      (text) => text.includes(subject),
      `the delivered email "${subject}" listed`,
      30_000,
    );
    expect(main).toContain(subject);
    await look(owner, 'emails');
    await owner.getByRole('link', { name: subject }).click();
    await owner.waitForURL(new RegExp(`/emails/${id}$`));
    expect(await owner.textContent('ol.timeline')).toContain('delivered');
    expect(await owner.getAttribute('iframe.preview', 'sandbox')).toBe('');
    await look(owner, 'email-detail');
    // The key list shows when the key was last used.
    await owner.goto(`${dashboardUrl()}${teamPath}api-keys`);
    expect(await owner.locator('tr', { hasText: 'Browser key' }).locator('td').nth(4).textContent()).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
    );
  }, 90_000);

  it('revokes the key, and the SDK gets 401 invalid_api_key', async () => {
    await owner.goto(`${dashboardUrl()}${teamPath}api-keys`);
    await owner.getByRole('button', { name: 'Revoke key Browser key' }).click();
    await owner.waitForURL(/notice=revoked/);
    expect(await owner.locator('tr', { hasText: 'Browser key (' }).first().locator('td').allTextContents()).toEqual([
      expect.stringMatching(/UTC$/),
      'admin@example.com',
      'revoked',
      expect.stringMatching(/^Browser key \(\S+\)$/),
    ]);
    await look(owner, 'api-keys');
    process.env.RESEND_BASE_URL = local().baseUrl;
    const out = await new Resend(secret).emails.send({
      from: `hello@${domain}`,
      to: 'delivered@resend.dev',
      subject: 'After revocation',
      text: 'x',
    });
    expect(out.error).toMatchObject({ statusCode: 401, name: 'invalid_api_key' });
  }, 30_000);

  it('re-enables a disabled webhook endpoint from its page (the secret was shown once at creation)', async () => {
    await owner.goto(`${dashboardUrl()}${teamPath}webhooks`);
    await owner.getByLabel('Endpoint URL').fill('http://127.0.0.1:9/hooks');
    await owner.getByRole('checkbox', { name: 'email.delivered', exact: true }).check();
    await owner.getByRole('checkbox', { name: 'email.bounced', exact: true }).check();
    await owner.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = (await owner.textContent('main .secret code')) ?? '';
    expect(shown).toMatch(/^whsec_/);
    await look(owner, 'webhook-created');
    await owner.goto(`${dashboardUrl()}${teamPath}webhooks`);
    expect(await owner.content()).not.toContain(shown);
    await look(owner, 'webhooks');
    await owner.getByRole('link', { name: 'http://127.0.0.1:9/hooks' }).click();
    const id = owner.url().split('/').pop()!;
    const teamId = teamPath.split('/')[2]!;
    // The delivery engine disables an endpoint after 20 exhausted deliveries; here the same core use case sets that state.
    await updateWebhook(testDeps(), teamId, id, { status: 'disabled' });
    await owner.reload();
    expect(await owner.textContent('main .card')).toContain('disabled');
    await look(owner, 'webhook-disabled');
    await owner.getByRole('button', { name: 'Re-enable endpoint' }).click();
    await owner.waitForURL(/notice=enabled/);
    expect(await owner.textContent('main .card')).toContain('enabled');
    expect((await getWebhook(testDeps(), teamId, id)).status).toBe('enabled');
    await look(owner, 'webhook-detail');
  }, 60_000);

  it('shows the audience pages and team settings', async () => {
    for (const [path, name, label] of [
      ['contacts', 'contacts', 'Email'],
      ['segments', 'segments', 'Name'],
      ['topics', 'topics', 'Name'],
      ['properties', 'contact-properties', 'Key'],
      ['suppressions', 'suppressions', 'Email'],
    ] as const) {
      await owner.goto(`${dashboardUrl()}${teamPath}${path}`);
      const value =
        path === 'contacts' || path === 'suppressions'
          ? `${name}-${randomUUID().slice(0, 6)}@example.com`
          : `${name.replace('-', '_')}_${randomUUID().slice(0, 6)}`;
      await owner.getByLabel(label, { exact: true }).fill(value);
      await owner.locator('main form.row button').click();
      await owner.waitForURL(/notice=created/);
      expect(await owner.textContent('main')).toContain(value);
      await look(owner, name);
    }
    await owner.goto(`${dashboardUrl()}${teamPath}settings`);
    await look(owner, 'settings');
  }, 90_000);

  it('invites a member who signs up from the emailed link; the member is refused a forbidden action with 403', async () => {
    const email = `member-${randomUUID().slice(0, 8)}@example.com`;
    await owner.goto(`${dashboardUrl()}${teamPath}settings`);
    await owner.getByLabel('Email').fill(email);
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    await owner.waitForURL(/notice=invited/);
    expect(await owner.textContent('main')).toContain(email);

    const mail = await inboxMessageTo(email, 'You are invited to the team');
    const link = /href="([^"]+\/invitations\/[^"]+)"/.exec(mail.body.html)?.[1];
    expect(link).toBeDefined();
    expect(mail.destination?.to ?? mail.destination).toEqual(expect.arrayContaining([email]));

    const member = await openPage(browser);
    await member.goto(link!);
    await look(member, 'invitation');
    await member.getByLabel('Your name').fill('Mia Member');
    await member.getByLabel(/Choose a password/).fill('correct horse battery');
    await member.getByRole('button', { name: 'Create account and join' }).click();
    await member.waitForURL(new RegExp(`${teamPath}$`));
    expect(await member.textContent('header')).toContain(`${email} · member`);

    // A member may not add domains: the form answers 403 forbidden.
    await member.goto(`${dashboardUrl()}${teamPath}domains`);
    await member.getByLabel('Domain').fill(`m${randomUUID().slice(0, 6)}.example.com`);
    const [refused] = await Promise.all([
      member.waitForResponse((r) => r.request().method() === 'POST'),
      member.getByRole('button', { name: 'Add domain' }).click(),
    ]);
    expect(refused.status()).toBe(403);
    expect(await member.textContent('main')).toContain('forbidden');
    await look(member, 'forbidden');
    // And sees no key form.
    await member.goto(`${dashboardUrl()}${teamPath}api-keys`);
    expect(await member.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    await member.close();
  }, 90_000);

  it('has no serious or critical accessibility violation on any page visited', () => {
    expect(violations).toEqual([]);
  });
});
