import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, IN_BROWSER } from '../support/browser.ts';
import { newTeam, testDeps } from '../support/local.ts';
import { dashboardUrl, look as lookAt, personIn } from '../support/dashboard.ts';
import { inboxMessageTo } from '../support/inbox.ts';
import { createUser } from '@mailstack/core/domain/people/create-user';
import { signInLink } from '@mailstack/core/domain/people/sign-in-link';
import { signInWithPassword } from '@mailstack/core/domain/people/sign-in-with-password';
import { actorIn, teamsOf } from '@mailstack/core/domain/people/membership';
import { inviteMember } from '@mailstack/core/domain/people/invite-member';
import { acceptInvitation } from '@mailstack/core/domain/people/accept-invitation';

/**
 * A person's own pages in headless Chromium, besides the team's: the one-time password page
 * reached from the emailed link, the "Create a team" page of a person in no team, and the page
 * of an address that does not exist. Each is checked with axe-core and photographed at 1280 and
 * 390 px.
 */
describe('dashboard account pages in a browser', IN_BROWSER, () => {
  let browser: Browser;
  const violations: string[] = [];
  const look = (p: Page, name: string) => lookAt(p, name, violations);
  /** A page in a context of its own (its own cookies: a separate person). */
  const freshPage = async () => openPage(browser);

  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('sets a new password from the emailed password link, which works once; the new password signs in and the old one no longer does', async () => {
    // Prepare
    const { team } = await newTeam();
    const { user } = await personIn(team.id, 'member', 'the old password 1');
    const page = await freshPage();
    await page.goto(`${dashboardUrl()}/sign-in`);
    await page.locator('form[action="/sign-in/email"]').getByLabel('Email').fill(user.email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.waitForURL(/notice=link-sent/);
    const mail = await inboxMessageTo(user.email, 'Your mailstack sign-in link');
    const link = /href="([^"]+\/password\/[^"]+)"/.exec(mail.body.html)?.[1];
    expect(link).toBeDefined();

    // Act
    await page.goto(link!);
    expect(await page.textContent('h1')).toBe('Choose a new password');
    await look(page, 'password');
    await page.getByLabel(/New password/).fill('the new password 2');
    await page.getByRole('button', { name: 'Save password' }).click();

    // Assess: signed in, on the person's team.
    await page.waitForURL(new RegExp(`/t/${team.id}/$`));
    expect(await page.textContent('header')).toContain(`${user.email} · member`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/notice=signed-out/);
    const signInWith = async (password: string) => {
      await page.locator('form[action="/sign-in"]').getByLabel('Email').fill(user.email);
      await page.getByLabel('Password').fill(password);
      const [answer] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST'),
        page.getByRole('button', { name: 'Sign in', exact: true }).click(),
      ]);
      return answer.status();
    };
    // The old password is checked through the core with an address of its own, so other tests' failed sign-ins from 127.0.0.1 cannot turn its refusal into 429.
    expect(
      await signInWithPassword(testDeps(), {
        email: user.email,
        password: 'the old password 1',
        sourceIp: `test-${randomUUID()}`,
      }),
    ).toBeUndefined();
    expect(await signInWith('the new password 2')).toBe(303);
    await page.waitForURL(new RegExp(`/t/${team.id}/$`));
    // The link worked once: its page answers 404 without asking for a password it would refuse.
    const again = await page.goto(link!);
    expect(again!.status()).toBe(404);
    expect(await page.getByLabel(/New password/).count()).toBe(0);
    await page.close();
  }, 90_000);

  it('asks an existing account to sign in before it joins: the invitation link alone signs no one in', async () => {
    // Prepare: a person with an account and a password, signed out; the owner of another team invites them.
    const d = testDeps();
    const first = await newTeam();
    const { user } = await personIn(first.team.id, 'member', 'the password 12');
    const other = await newTeam({ name: 'Team with a link', plan: 'pro' });
    const { user: owner } = await personIn(other.team.id, 'owner');
    await inviteMember(d, await actorIn(d, owner, other.team.id), { email: user.email, role: 'member' });
    const mail = await inboxMessageTo(user.email, 'You are invited to the team Team with a link');
    const invitation = /href="([^"]+\/invitations\/[^"]+)"/.exec(mail.body.html)![1]!;
    const page = await freshPage();

    // Act: open the link signed out.
    await page.goto(invitation);

    // Assess: no join button, only a way to sign in; the use case refuses to join without the account signed in.
    expect(await page.textContent('main')).toContain(`sign in as ${user.email}`);
    expect(await page.getByRole('button', { name: 'Join the team' }).count()).toBe(0);
    await look(page, 'invitation-sign-in-first');
    const token = new URL(invitation).pathname.split('/').pop()!;
    expect(await acceptInvitation(d, token, {}, undefined)).toBe('sign_in_first');
    expect(await acceptInvitation(d, token, {}, { email: 'someone-else@example.com' })).toBe('sign_in_first');
    expect((await teamsOf(d, user.id)).map((m) => m.teamId)).toEqual([first.team.id]);

    // Signed in as the account, the same link joins.
    await page.getByRole('link', { name: `sign in as ${user.email}` }).click();
    await page.waitForURL(/\/sign-in\?next=/);
    await page.locator('form[action="/sign-in"]').getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill('the password 12');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/invitations\//);
    await page.getByRole('button', { name: 'Join the team' }).click();
    await page.waitForURL(new RegExp(`/t/${other.team.id}/$`));
    expect((await teamsOf(d, user.id)).map((m) => m.teamId).sort()).toEqual([first.team.id, other.team.id].sort());
    await page.close();
  }, 90_000);

  it("lets a signed-in person accept an invitation to another team with one click (the form carries their session's token)", async () => {
    // Prepare: a member of one team, signed in; the owner of another team invites them.
    const d = testDeps();
    const first = await newTeam();
    const { user, link } = await personIn(first.team.id, 'member');
    const page = await freshPage();
    await page.goto(link);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(new RegExp(`/t/${first.team.id}/$`));
    // On the pro plan a person may be in 5 teams (the free plan's cap is 1).
    const second = await newTeam({ name: 'Second team', plan: 'pro' });
    const { user: owner } = await personIn(second.team.id, 'owner');
    await inviteMember(d, await actorIn(d, owner, second.team.id), { email: user.email, role: 'admin' });
    const mail = await inboxMessageTo(user.email, 'You are invited to the team Second team');
    const invitation = /href="([^"]+\/invitations\/[^"]+)"/.exec(mail.body.html)![1]!;

    // Act
    await page.goto(invitation);
    expect(await page.textContent('main')).toContain(`Account: ${user.email}`);
    await look(page, 'invitation-existing-account');
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Join the team' }).click(),
    ]);

    // Assess
    expect(answer.status()).toBe(303);
    await page.waitForURL(new RegExp(`/t/${second.team.id}/$`));
    expect(await page.textContent('header')).toContain(`${user.email} · admin`);
    expect((await teamsOf(d, user.id)).map((m) => m.role).sort()).toEqual(['admin', 'member']);
    await page.close();
  }, 60_000);

  it('offers a person in no team to create one, and makes them its owner', async () => {
    // Prepare
    const d = testDeps();
    const user = await createUser(d, { email: `lone-${randomUUID().slice(0, 8)}@example.com`, name: 'Lone person' });
    const page = await freshPage();
    await page.goto(await signInLink(d, user));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${dashboardUrl()}/`);
    expect(await page.textContent('h1')).toBe('Create a team');
    expect(await page.textContent('main')).toContain('You are not in a team yet.');
    await look(page, 'create-team');

    // Act
    await page.getByLabel('Team name').fill('Lone Co');
    await page.getByRole('button', { name: 'Create team' }).click();

    // Assess
    await page.waitForURL(/\/t\/[0-9a-f-]{36}\/$/);
    const teamId = new URL(page.url()).pathname.split('/')[2];
    expect(await page.textContent('h1')).toBe('Overview');
    expect(await page.textContent('header')).toContain(`${user.email} · owner`);
    expect(await page.locator('header select option:checked').textContent()).toBe('Lone Co');
    expect((await teamsOf(d, user.id)).map((m) => [m.teamId, m.role])).toEqual([[teamId, 'owner']]);
    await page.close();
  }, 60_000);

  it('answers an address that is no page with a 404 page that leads back to the dashboard, and a team address without its slash with the team', async () => {
    // Prepare
    const { team } = await newTeam();
    const page = await freshPage();
    await page.goto((await personIn(team.id, 'owner')).link);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/t\/[0-9a-f-]{36}\/$/);

    // Act
    const answer = await page.goto(`${dashboardUrl()}/t/${team.id}/no-such-page`);

    // Assess
    expect(answer!.status()).toBe(404);
    expect(await page.textContent('h1')).toBe('Not found');
    expect(await page.textContent('main [role="alert"]')).toBe('not_found: There is no page at this address.');
    await look(page, 'not-found');
    await page.getByRole('link', { name: 'Back to the dashboard' }).click();
    await page.waitForURL(new RegExp(`/t/${team.id}/$`));
    // A team's address typed without its trailing slash leads to the team's overview.
    const bare = await page.goto(`${dashboardUrl()}/t/${team.id}`);
    expect(bare!.status()).toBe(200);
    expect(page.url()).toBe(`${dashboardUrl()}/t/${team.id}/`);
    expect(bare!.request().redirectedFrom()?.url()).toBe(`${dashboardUrl()}/t/${team.id}`);
    await page.close();
  }, 60_000);

  it('has no serious or critical accessibility violation on any page visited', () => {
    expect(violations).toEqual([]);
  });
});
