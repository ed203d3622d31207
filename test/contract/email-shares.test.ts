import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { sendingTeam } from '../support/sending.ts';
import { call } from '../support/local.ts';
import { mailboxTeam, mx } from '../support/mailboxes.ts';
import { waitFor } from '../support/wait.ts';
import { expectReferenceShape } from '../support/openapi.ts';
import { launchBrowser, openPage, IN_BROWSER } from '../support/browser.ts';
import { dashboardUrl, look, personIn, reloadUntil, signInOverHttp } from '../support/dashboard.ts';

/**
 * Shared email links (`emails.share`, POST /emails/{id}/share) through the official SDK: the
 * link opens a read-only page of the email on the dashboard's server without a session, until it
 * expires or is revoked from the email's page; `expires_in` is checked; another team's email is 404.
 */
describe('shared email links', IN_BROWSER, () => {
  let t: Awaited<ReturnType<typeof sendingTeam>>;
  let browser: Browser;
  const run = randomUUID().slice(0, 8);
  const subject = `Your invoice ${run}`;
  let emailId = '';
  const violations: string[] = [];

  beforeAll(async () => {
    t = await sendingTeam();
    const sent = await t.resend.emails.send({
      from: t.from,
      to: 'ann@example.com',
      subject,
      html: `<h1>Invoice ${run}</h1><p>Thank you.</p>`,
      text: `Invoice ${run}. Thank you.`,
    });
    expect(sent.error).toBeNull();
    emailId = sent.data!.id;
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('shares a sent email: the link opens its read-only page in a browser without a session', async () => {
    // Act
    const shared = await t.resend.emails.share(emailId, { expiresIn: '10m' });
    const page = await openPage(browser);
    await page.goto(shared.data!.url);

    // Assess
    expect(shared.error).toBeNull();
    expectReferenceShape('POST', '/emails/{email_id}/share', 200, shared.data);
    expect(shared.data).toMatchObject({ object: 'email', id: emailId });
    expect(shared.data!.url).toMatch(new RegExp(`^${dashboardUrl()}/shared/[A-Za-z0-9_-]{43}$`));
    expect(await page.textContent('h1')).toBe(subject);
    expect(await page.textContent('main')).toContain('ann@example.com');
    expect(await page.textContent('pre')).toBe(`Invoice ${run}. Thank you.`);
    const frame = page.frameLocator('iframe.preview');
    expect(await frame.locator('h1').textContent()).toBe(`Invoice ${run}`);
    expect(await page.getAttribute('iframe.preview', 'sandbox')).toBe('');
    await look(page, 'shared-email', violations);
    expect(violations).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('defaults to 48 hours and accepts the documented durations; anything else is a 422 naming expires_in', async () => {
    const at = Date.now();
    const plain = await t.resend.emails.share(emailId);
    const res = await call('POST', `/emails/${emailId}/share`, { key: t.secret, body: { expires_in: '2 hours' } });
    const day = await call('POST', `/emails/${emailId}/share`, { key: t.secret, body: { expires_in: '1 day' } });

    expect(plain.error).toBeNull();
    const plainExpiry = Date.parse((plain.data as unknown as { expires_at: string }).expires_at);
    expect(plainExpiry - at).toBeGreaterThan(48 * 3600_000 - 60_000);
    expect(plainExpiry - at).toBeLessThanOrEqual(48 * 3600_000 + 60_000);
    expect(res.status).toBe(200);
    expect(Date.parse(res.json.expires_at) - at).toBeLessThanOrEqual(2 * 3600_000 + 60_000);
    expect(day.status).toBe(200);
    for (const bad of ['49h', '3 days', '0m', 'soon', '10 fortnights', '-5m', '1.5 weeks']) {
      const refused = await t.resend.emails.share(emailId, { expiresIn: bad });
      expect(refused.error, bad).toMatchObject({ name: 'validation_error', statusCode: 422 });
      expect(refused.error!.message, bad).toContain('expires_in');
    }
    const notString = await call('POST', `/emails/${emailId}/share`, { key: t.secret, body: { expires_in: 600 } });
    expect(notString.status).toBe(422);
    expect(notString.json.message).toContain('expires_in');
  });

  it("answers 404 for another team's email and an unknown id", async () => {
    const other = await sendingTeam();

    const theirs = await other.resend.emails.share(emailId);
    const unknown = await t.resend.emails.share(randomUUID());

    expect(theirs.error).toMatchObject({ name: 'not_found', statusCode: 404 });
    expect(unknown.error).toMatchObject({ name: 'not_found', statusCode: 404 });
  });

  it('refuses the link once it has expired (404), the HTML frame too', async () => {
    const shared = await t.resend.emails.share(emailId, { expiresIn: '2s' });
    const url = shared.data!.url;
    expect((await fetch(url)).status).toBe(200);

    const after = await waitFor(
      () => fetch(url).then((r) => r.status),
      (status) => status === 404,
      { what: 'the shared link expiring', timeoutMs: 15_000 },
    );

    expect(after).toBe(404);
    expect((await fetch(`${url}/html`)).status).toBe(404);
    expect(await (await fetch(url)).text()).toContain('unknown, expired or revoked');
  });

  it("lists a sent email's active links on its page, and Revoke makes the link answer 404", async () => {
    // Prepare
    const own = await t.resend.emails.send({
      from: t.from,
      to: 'bob@example.com',
      subject: `Shared ${run}`,
      text: 'x',
    });
    const shared = await t.resend.emails.share(own.data!.id, { expiresIn: '30m' });
    const url = shared.data!.url;
    const owner = await openPage(browser);
    await owner.goto((await personIn(t.team.id, 'admin')).link);
    await owner.getByRole('button', { name: 'Continue' }).click();
    await owner.waitForURL(/\/t\/[0-9a-f-]{36}\/$/);
    const revoke = owner.getByRole('button', { name: /^Revoke the link/ });

    // Act
    await owner.goto(`${dashboardUrl()}/t/${t.team.id}/emails/${own.data!.id}`);
    const listed = await reloadUntil(
      owner,
      () => revoke.count(),
      (n) => n === 1,
      'the link listed on the email page',
    );
    await look(owner, 'email-shared-links', violations);
    await revoke.click();
    await owner.waitForURL(/notice=link-revoked/);

    // Assess
    expect(listed).toBe(1);
    expect((await fetch(url)).status).toBe(404);
    expect(
      await reloadUntil(
        owner,
        () => revoke.count(),
        (n) => n === 0,
        'the revoked link gone from the page',
      ),
    ).toBe(0);
    expect(violations).toEqual([]);
    await owner.context().close();
  }, 60_000);

  it('creates a link from the email page (shown once), and a member may not', async () => {
    const owner = await signInOverHttp((await personIn(t.team.id, 'owner')).link);
    const member = await signInOverHttp((await personIn(t.team.id, 'member')).link);

    const made = await owner.post(`/t/${t.team.id}/emails/${emailId}/shares`, {
      _csrf: owner.csrf,
      expires_in: '1h',
    });
    const refused = await member.post(`/t/${t.team.id}/emails/${emailId}/shares`, {
      _csrf: member.csrf,
      expires_in: '1h',
    });

    expect(made.status).toBe(200);
    const url = new RegExp(`${dashboardUrl()}/shared/[A-Za-z0-9_-]{43}`).exec(await made.text())?.[0];
    expect(url).toBeDefined();
    expect(await (await fetch(url!)).text()).toContain(subject);
    expect(refused.status).toBe(403);
  });

  it('shares a received email: the link shows it without a session', async () => {
    const r = await mailboxTeam();
    await r.mailbox('inbox', 'Inbox');
    await mx().sendMail({
      from: 'Ada <ada@customer.example.org>',
      to: `inbox@${r.domain}`,
      subject: `Question ${run}`,
      text: 'Can you help?',
    });
    const received = await waitFor(
      async () => (await r.resend.emails.receiving.list()).data?.data ?? [],
      (list) => list.length === 1,
      { what: 'the received email listed' },
    );

    const shared = await r.resend.emails.share(received[0]!.id);
    const theirs = await t.resend.emails.share(received[0]!.id);

    expect(shared.error).toBeNull();
    const page = await (await fetch(shared.data!.url)).text();
    expect(page).toContain(`Question ${run}`);
    expect(page).toContain('Can you help?');
    expect(page).toContain('ada@customer.example.org');
    expect(theirs.error).toMatchObject({ name: 'not_found' });
  }, 60_000);
});
