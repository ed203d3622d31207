import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, IN_BROWSER } from '../support/browser.ts';
import { testDeps } from '../support/local.ts';
import { dashboardUrl, look as lookAt, personIn, signInOverHttp } from '../support/dashboard.ts';
import { mailboxTeam } from '../support/mailboxes.ts';
import { getMailbox } from '@mailstack/core/domain/mailboxes/get-mailbox';
import { listMailboxes } from '@mailstack/core/domain/mailboxes/list-mailboxes';
import { authenticateMailboxKey } from '@mailstack/core/domain/mailboxes/authenticate-mailbox-key';
import { createMailboxKey } from '@mailstack/core/domain/mailboxes/create-mailbox-key';
import { listMailboxKeys } from '@mailstack/core/domain/mailboxes/list-mailbox-keys';
import { MailboxAuthError } from '@mailstack/core/domain/mailboxes/mailbox-key';
import { signInLink } from '@mailstack/core/domain/people/sign-in-link';

/**
 * The mailboxes pages in headless Chromium: a person creates a mailbox on the team's verified
 * domain, renames it, creates a mailbox key (shown once) that the mailbox agent API accepts,
 * revokes it, and deletes the mailbox; who may do what (the mailbox's owner alone handles its
 * keys, members only look), and another team's mailbox answering 404. Each page is checked with
 * axe-core and photographed at 1280 and 390 px.
 */
describe('mailboxes in a browser', IN_BROWSER, () => {
  let browser: Browser;
  let team: Awaited<ReturnType<typeof mailboxTeam>>;
  let base = '';
  const run = randomUUID().slice(0, 8);
  const violations: string[] = [];
  const look = (p: Page, name: string) => lookAt(p, name, violations);

  /** A browser page signed in as a new person with `role` in the team. */
  const signedIn = async (role: 'owner' | 'admin' | 'member') => {
    const person = await personIn(team.team.id, role);
    const page = await openPage(browser);
    await page.goto(person.link);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(new RegExp(`/t/${team.team.id}/$`));
    return { ...person, page };
  };
  /** Submits a form with a button and returns the status of its POST answer. */
  const submit = async (page: Page, button: ReturnType<Page['getByRole']>) => {
    const [answer] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), button.click()]);
    await page.waitForLoadState();
    return answer.status();
  };
  const keyRow = (page: Page, name: string) =>
    page
      .locator('tbody tr', { has: page.locator('td', { hasText: new RegExp(`^${name}$`) }) })
      .locator('td')
      .allTextContents();

  beforeAll(async () => {
    team = await mailboxTeam();
    base = `${dashboardUrl()}/t/${team.team.id}`;
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('creates a mailbox, renames it, creates a key shown once that authenticates, revokes it, and deletes the mailbox', async () => {
    // Prepare
    const deps = testDeps();
    const { page, user } = await signedIn('admin');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Mailboxes' }).click();
    await page.waitForURL(`${base}/mailboxes`);
    expect(await page.getByLabel('Owner').inputValue()).toBe(user.id);
    await look(page, 'mailboxes');

    // Act: a local part the core refuses answers the form again, with the value typed.
    await page.getByLabel('Local part').fill('not valid!');
    await page.getByLabel('Domain').selectOption(team.domainId);
    const refused = await submit(page, page.getByRole('button', { name: 'Create mailbox' }));

    // Assess
    expect(refused).toBe(422);
    expect(await page.getByRole('alert').textContent()).toContain('validation_error');
    expect(await page.getByLabel('Local part').inputValue()).toBe('not valid!');
    await look(page, 'mailboxes-refused');

    // Act: create
    await page.getByLabel('Local part').fill(`desk${run}`);
    await page.getByLabel('Display name (optional)').fill('Front desk');
    await page.getByRole('button', { name: 'Create mailbox' }).click();
    await page.waitForURL(/\/mailboxes\/[^/?]+\?notice=created$/);
    const id = new URL(page.url()).pathname.split('/').pop()!;

    // Assess
    expect(await getMailbox(deps, team.team.id, id)).toMatchObject({
      address: `desk${run}@${team.domain}`,
      name: 'Front desk',
      ownerUserId: user.id,
      domainId: team.domainId,
    });
    const main = await page.textContent('main');
    expect(main).toContain(`${deps.config.DASHBOARD_URL}/api/mailbox-agent`);
    expect(main).toContain(`${deps.config.PUBLIC_BASE_URL}/mcp/${id}`);
    await look(page, 'mailbox');

    // Act: rename
    await page.getByLabel(/^Local part/).fill(`front${run}`);
    await page.getByLabel('Display name').fill('Front office');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/notice=saved$/);

    // Assess
    expect(await getMailbox(deps, team.team.id, id)).toMatchObject({
      address: `front${run}@${team.domain}`,
      name: 'Front office',
    });
    expect(await page.textContent('h1')).toBe(`front${run}@${team.domain}`);

    // Act: a key that may send, then one that expires at the end of a day
    await page.getByLabel('Key name').fill('Agent');
    await page.getByLabel('May send without approval').check();
    const created = await submit(page, page.getByRole('button', { name: 'Create key' }));
    const secret = (await page.textContent('#new-key')) ?? '';
    await look(page, 'mailbox-key-created');
    await page.getByLabel('Key name').fill('Dated');
    await page.getByLabel(/^Expires on/).fill('2099-12-31');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.waitForSelector('#new-key');

    // Assess: shown once, in the 201 answer only; it authenticates for this mailbox.
    expect(created).toBe(201);
    expect(secret).toMatch(/^mmb_/);
    const caller = await authenticateMailboxKey(deps, `Bearer ${secret}`);
    expect(caller.mailbox.id).toBe(id);
    expect(caller.key.permissions).toEqual(['read', 'draft', 'send']);
    expect((await listMailboxKeys(deps, team.team.id, id)).find((k) => k.name === 'Dated')).toMatchObject({
      permissions: ['read', 'draft'],
      expiresAt: '2099-12-31T23:59:59.999Z',
    });
    await page.goto(`${base}/mailboxes/${id}`);
    expect(await page.content()).not.toContain(secret);
    expect((await keyRow(page, 'Agent')).slice(0, 4)).toEqual(['Agent', 'read, draft, send', 'never', 'active']);

    // Act: revoke
    await page.getByRole('button', { name: 'Revoke key Agent' }).click();
    await page.waitForURL(/notice=key-revoked$/);

    // Assess
    expect((await keyRow(page, 'Agent'))[3]).toBe('revoked');
    const refusal = await authenticateMailboxKey(deps, `Bearer ${secret}`).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(MailboxAuthError);
    expect(refusal).toMatchObject({ status: 403 });
    await look(page, 'mailbox-key-revoked');

    // Act: delete
    await page.getByRole('button', { name: 'Delete mailbox' }).click();
    await page.waitForURL(`${base}/mailboxes?notice=deleted`);

    // Assess
    expect(await page.textContent('main')).not.toContain(`front${run}@`);
    await expect(getMailbox(deps, team.team.id, id)).rejects.toMatchObject({ statusCode: 404 });
    await look(page, 'mailboxes-after-delete');
    await page.close();
  }, 60_000);

  it("shows the key form to the mailbox's owner only, and refuses a forged key creation or revocation by anyone else with 403", async () => {
    // Prepare: the mailbox belongs to a member of the team, who made a key.
    const deps = testDeps();
    const m = await team.mailbox(`owned${run}`);
    const { key } = await createMailboxKey(deps, {
      teamId: team.team.id,
      mailboxId: m.id,
      actorUserId: team.owner.id,
      name: "Owner's",
      send: false,
    });
    const { page } = await signedIn('admin');

    // Act
    await page.goto(`${base}/mailboxes/${m.id}`);

    // Assess: an admin may rename and delete it but not handle its keys.
    expect(await page.getByLabel('Key name').count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Revoke key/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete mailbox' }).count()).toBe(1);
    expect(await page.textContent('main')).toContain("Only the mailbox's owner creates and revokes its keys.");
    await look(page, 'mailbox-not-owner');
    await page.close();

    // Act: forged posts, with a valid CSRF token
    const admin = await signInOverHttp((await personIn(team.team.id, 'admin')).link);
    const forged = await admin.post(`/t/${team.team.id}/mailboxes/${m.id}/keys`, {
      _csrf: admin.csrf,
      name: 'Forged',
      send: 'on',
    });
    const revoke = await admin.post(`/t/${team.team.id}/mailboxes/${m.id}/keys/${key.id}/revoke`, {
      _csrf: admin.csrf,
    });

    // Assess
    expect([forged.status, revoke.status]).toEqual([403, 403]);
    expect(await forged.text()).not.toContain('mmb_');
    expect((await listMailboxKeys(deps, team.team.id, m.id)).map((k) => [k.name, k.revoked])).toEqual([
      ["Owner's", false],
    ]);

    // The owner (a member) sees the key form, but not the rename and delete forms.
    const owner = await signInOverHttp(await signInLink(deps, team.owner));
    const own = await (await owner.get(`/t/${team.team.id}/mailboxes/${m.id}`)).text();
    expect(own).toContain('Key name');
    expect(own).toContain(`/mailboxes/${m.id}/keys/${key.id}/revoke`);
    expect(own).not.toContain('Delete mailbox');
  }, 60_000);

  it('lets a member see the mailboxes but refuses their create, rename and delete with 403', async () => {
    // Prepare
    const deps = testDeps();
    const m = await team.mailbox(`seen${run}`);
    const member = await signInOverHttp((await personIn(team.team.id, 'member')).link);

    // Act
    const list = await member.get(`/t/${team.team.id}/mailboxes`);
    const create = await member.post(`/t/${team.team.id}/mailboxes`, {
      _csrf: member.csrf,
      local_part: `member${run}`,
      domain_id: team.domainId,
      owner_user_id: team.owner.id,
    });
    const rename = await member.post(`/t/${team.team.id}/mailboxes/${m.id}/rename`, {
      _csrf: member.csrf,
      local_part: `renamed${run}`,
      name: '',
    });
    const del = await member.post(`/t/${team.team.id}/mailboxes/${m.id}/delete`, { _csrf: member.csrf });

    // Assess
    expect(list.status).toBe(200);
    const text = await list.text();
    expect(text).toContain(m.address);
    expect(text).not.toContain('Create mailbox');
    expect([create.status, rename.status, del.status]).toEqual([403, 403, 403]);
    const addresses = (await listMailboxes(deps, team.team.id)).map((x) => x.address);
    expect(addresses).toContain(m.address);
    expect(addresses).not.toContain(`member${run}@${team.domain}`);
  }, 30_000);

  it("answers another team's mailbox by URL with 404 and changes nothing", async () => {
    // Prepare
    const deps = testDeps();
    const other = await mailboxTeam();
    const theirs = await other.mailbox(`theirs${run}`);
    const s = await signInOverHttp((await personIn(team.team.id, 'owner')).link);
    const mine = `/t/${team.team.id}/mailboxes/${theirs.id}`;

    // Act
    const answers = [
      await s.get(mine),
      await s.get(`/t/${other.team.id}/mailboxes`),
      await s.post(`${mine}/rename`, { _csrf: s.csrf, local_part: `taken${run}` }),
      await s.post(`${mine}/keys`, { _csrf: s.csrf, name: 'Stolen' }),
      await s.post(`${mine}/delete`, { _csrf: s.csrf }),
    ];

    // Assess
    expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 404, 404]);
    expect(await answers[0]!.text()).not.toContain(theirs.address);
    expect(await getMailbox(deps, other.team.id, theirs.id)).toMatchObject({ address: theirs.address });
    expect(await listMailboxKeys(deps, other.team.id, theirs.id)).toEqual([]);
  }, 30_000);

  it('has no serious or critical accessibility violation on any page visited', () => {
    expect(violations).toEqual([]);
  });
});
