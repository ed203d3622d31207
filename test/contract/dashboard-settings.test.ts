import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, IN_BROWSER } from '../support/browser.ts';
import { newTeam, testDeps } from '../support/local.ts';
import { dashboardUrl, look as lookAt, personIn, signInOverHttp } from '../support/dashboard.ts';
import { inboxMessageTo } from '../support/inbox.ts';
import { listMembers, teamsOf } from '@mailstack/core/domain/people/membership';
import { listInvitations } from '@mailstack/core/domain/people/list-invitations';

/**
 * Team settings in headless Chromium: an owner changes a member's role, removes a member and
 * withdraws an invitation; an admin is refused (403 forbidden) every change to an owner. Each
 * page is checked with axe-core and photographed at 1280 and 390 px.
 */
describe('team settings in a browser', IN_BROWSER, () => {
  let browser: Browser;
  let teamId = '';
  let settings = '';
  const violations: string[] = [];
  const look = (p: Page, name: string) => lookAt(p, name, violations);

  /** A browser page signed in as a new person with `role` in the team, on the settings page. */
  const signedIn = async (role: 'owner' | 'admin' | 'member') => {
    const person = await personIn(teamId, role);
    const page = await openPage(browser);
    await page.goto(person.link);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(new RegExp(`/t/${teamId}/$`));
    await page.goto(settings);
    return { ...person, page };
  };
  /** Submits a form with a button and returns the status of its POST answer. */
  const submit = async (page: Page, button: ReturnType<Page['getByRole']>) => {
    const [answer] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), button.click()]);
    await page.waitForLoadState();
    return answer.status();
  };
  const roles = async () => Object.fromEntries((await listMembers(testDeps(), teamId)).map((m) => [m.email, m.role]));

  beforeAll(async () => {
    // The pro plan lets a person belong to 5 teams, so joining this one is never capped.
    teamId = (await newTeam({ plan: 'pro' })).team.id;
    settings = `${dashboardUrl()}/t/${teamId}/settings`;
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it("an owner changes a member's role and removes a member, who then gets 404 on the team", async () => {
    // Prepare
    const owner = await signedIn('owner');
    const promoted = await personIn(teamId, 'member');
    const leaving = await personIn(teamId, 'member');
    const leavingSession = await signInOverHttp(leaving.link);
    expect((await leavingSession.get(`/t/${teamId}/`)).status).toBe(200);
    await owner.page.reload();

    // Act: the role
    await owner.page.getByLabel(`Role of ${promoted.user.email}`).selectOption('admin');
    const changed = await submit(
      owner.page,
      owner.page.locator('tr', { hasText: promoted.user.email }).getByRole('button', { name: 'Change role' }),
    );

    // Assess
    expect(changed).toBe(303);
    expect(owner.page.url()).toMatch(/notice=saved$/);
    expect(await owner.page.getByLabel(`Role of ${promoted.user.email}`).inputValue()).toBe('admin');
    expect((await roles())[promoted.user.email]).toBe('admin');
    await look(owner.page, 'settings-role-changed');

    // Act: the removal
    const removed = await submit(owner.page, owner.page.getByRole('button', { name: `Remove ${leaving.user.email}` }));

    // Assess
    expect(removed).toBe(303);
    expect(owner.page.url()).toMatch(/notice=removed$/);
    expect(await owner.page.textContent('main')).not.toContain(leaving.user.email);
    expect(await roles()).not.toHaveProperty(leaving.user.email);
    expect(await teamsOf(testDeps(), leaving.user.id)).toEqual([]);
    expect((await leavingSession.get(`/t/${teamId}/`)).status).toBe(404);
    await look(owner.page, 'settings-member-removed');
    await owner.page.close();
  }, 90_000);

  it('an owner withdraws an invitation, and its emailed link then answers 404', async () => {
    // Prepare
    const owner = await signedIn('owner');
    const email = `withdrawn-${randomUUID().slice(0, 8)}@example.com`;
    await owner.page.getByLabel('Email').fill(email);
    await owner.page.getByRole('button', { name: 'Send invitation' }).click();
    await owner.page.waitForURL(/notice=invited$/);
    const mail = await inboxMessageTo(email, 'You are invited to the team');
    const link = /href="([^"]+\/invitations\/[^"]+)"/.exec(mail.body.html)![1]!;
    expect((await fetch(link)).status).toBe(200);

    // Act
    const withdrawn = await submit(
      owner.page,
      owner.page.getByRole('button', { name: `Withdraw the invitation of ${email}` }),
    );

    // Assess
    expect(withdrawn).toBe(303);
    expect(owner.page.url()).toMatch(/notice=removed$/);
    expect(await owner.page.textContent('main')).not.toContain(email);
    expect((await listInvitations(testDeps(), teamId)).map((i) => i.email)).not.toContain(email);
    expect((await fetch(link)).status).toBe(404);
    await look(owner.page, 'settings-invitation-withdrawn');
    await owner.page.close();
  }, 60_000);

  it("an admin is refused with 403 forbidden when changing an owner's role, removing an owner or granting the owner role", async () => {
    // Prepare
    const owner = await personIn(teamId, 'owner');
    const member = await personIn(teamId, 'member');
    const admin = await signedIn('admin');
    const before = await roles();

    // Act
    await admin.page.getByLabel(`Role of ${owner.user.email}`).selectOption('member');
    const demote = await submit(
      admin.page,
      admin.page.locator('tr', { hasText: owner.user.email }).getByRole('button', { name: 'Change role' }),
    );
    const demoteText = await admin.page.textContent('main');
    await look(admin.page, 'settings-admin-forbidden');
    await admin.page.goto(settings);
    const remove = await submit(admin.page, admin.page.getByRole('button', { name: `Remove ${owner.user.email}` }));
    await admin.page.goto(settings);
    await admin.page.getByLabel(`Role of ${member.user.email}`).selectOption('owner');
    const grant = await submit(
      admin.page,
      admin.page.locator('tr', { hasText: member.user.email }).getByRole('button', { name: 'Change role' }),
    );
    // An admin may change a member's role short of owner.
    await admin.page.goto(settings);
    await admin.page.getByLabel(`Role of ${member.user.email}`).selectOption('admin');
    const allowed = await submit(
      admin.page,
      admin.page.locator('tr', { hasText: member.user.email }).getByRole('button', { name: 'Change role' }),
    );

    // Assess
    expect([demote, remove, grant]).toEqual([403, 403, 403]);
    expect(demoteText).toContain('forbidden');
    expect(allowed).toBe(303);
    expect(await roles()).toEqual({ ...before, [member.user.email]: 'admin' });
    expect(before[owner.user.email]).toBe('owner');
    await admin.page.close();
  }, 90_000);

  it('has no serious or critical accessibility violation on any page visited', () => {
    expect(violations).toEqual([]);
  });
});
