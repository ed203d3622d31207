import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newTeam, local, testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { personIn, signInOverHttp } from '../support/dashboard.ts';
import { inboxEmails, inboxMessageTo } from '../support/inbox.ts';
import { waitFor } from '../support/wait.ts';
import { createDashboard } from '../../functions/dashboard/app.ts';
import { createUser } from '@mailstack/core/domain/people/create-user';
import { actorIn } from '@mailstack/core/domain/people/membership';
import { addMember } from '@mailstack/core/domain/people/add-member';
import { createTeamFor } from '@mailstack/core/domain/people/create-team-for';
import { mintApiKey } from '@mailstack/core/domain/api-keys/create-api-key';
import { signInLink } from '@mailstack/core/domain/people/sign-in-link';
import { signInWithLink } from '@mailstack/core/domain/people/sign-in-with-link';
import { createTeam } from '@mailstack/core/domain/teams/create-team';
import { inviteMember } from '@mailstack/core/domain/people/invite-member';
import { listInvitations } from '@mailstack/core/domain/people/list-invitations';
import { peekInvitation } from '@mailstack/core/domain/people/invitation';
import { acceptInvitation } from '@mailstack/core/domain/people/accept-invitation';
import {
  emailSignInLink,
  SIGN_IN_LINKS_PER_ADDRESS,
  SIGN_IN_LINKS_PER_SOURCE,
} from '@mailstack/core/domain/people/email-sign-in-link';

describe('dashboard security', () => {
  it('refuses a form whose CSRF token is missing or wrong, and changes nothing', async () => {
    const { team, resend } = await newTeam();
    const s = await signInOverHttp((await personIn(team.id)).link);
    for (const form of [
      { email: 'csrf-missing@example.com' },
      { email: 'csrf-wrong@example.com', _csrf: `${s.csrf.slice(0, -2)}xx` },
    ] as Record<string, string>[]) {
      const res = await s.post(`/t/${team.id}/contacts`, form);
      expect(res.status).toBe(403);
      expect(await res.text()).toContain('security token');
    }
    const ok = await s.post(`/t/${team.id}/contacts`, { email: 'csrf-right@example.com', _csrf: s.csrf });
    expect(ok.status).toBe(303);
    const emails = (await resend.contacts.list()).data!.data.map((c) => c.email);
    expect(emails).toEqual(['csrf-right@example.com']);
    // A signed-out form without the pre-session cookie pair is refused too.
    const bare = await fetch(`${local().dashboardUrl}/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=a@example.com&password=x&_csrf=guess-guess-guess-guess',
    });
    expect(bare.status).toBe(403);
  });

  it("answers another team's pages and resources by URL with 404", async () => {
    const mine = await newTeam();
    const theirs = await sendingTeam();
    const sent = await theirs.resend.emails.send({
      from: theirs.from,
      to: 'delivered@resend.dev',
      subject: 'Theirs',
      text: 'private',
    });
    const contact = (await theirs.resend.contacts.create({ email: 'their-contact@example.com' })).data!.id;
    const s = await signInOverHttp((await personIn(mine.team.id)).link);
    for (const path of [
      `/t/${theirs.team.id}/`,
      `/t/${theirs.team.id}/emails`,
      `/t/${mine.team.id}/emails/${sent.data!.id}`,
      `/t/${mine.team.id}/emails/${sent.data!.id}/html`,
      `/t/${mine.team.id}/emails/${sent.data!.id}/raw`,
      `/t/${mine.team.id}/domains/${theirs.domainId}`,
    ]) {
      const res = await s.get(path);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).not.toContain('private');
    }
    const del = await s.post(`/t/${mine.team.id}/contacts/${contact}/delete`, { _csrf: s.csrf });
    expect(del.status).toBe(404);
    expect((await theirs.resend.contacts.get({ id: contact })).data?.email).toBe('their-contact@example.com');
  });

  it('sets the session cookie HttpOnly and SameSite=Lax (Secure outside the local host), a new id at each sign-in, and ends it at sign-out', async () => {
    const { team } = await newTeam();
    const person = await personIn(team.id);
    const s1 = await signInOverHttp(person.link);
    const flags = s1.setCookie.find((c) => c.startsWith('ms_session='))!;
    expect(flags).toMatch(/HttpOnly/);
    expect(flags).toMatch(/SameSite=Lax/);
    expect(flags).not.toMatch(/Secure/); // http://127.0.0.1: a Secure cookie would never come back
    const s2 = await signInOverHttp(await signInLink(testDeps(), person.user));
    expect(s2.cookie).not.toBe(s1.cookie);
    // A sign-in link works once.
    expect(await signInWithLink(testDeps(), person.link.split('/').pop()!)).toBeUndefined();
    const out = await s2.post('/sign-out', { _csrf: s2.csrf });
    expect(out.status).toBe(303);
    expect((await s2.get(`/t/${team.id}/`)).status).toBe(303); // back to sign-in
    expect((await s1.get(`/t/${team.id}/`)).status).toBe(200); // another session is its own

    // Served from an https origin (AWS), the cookie is Secure.
    const d = testDeps();
    const app = createDashboard({
      deps: () => ({ ...d, config: { ...d.config, DASHBOARD_URL: 'https://dashboard.example.com' } }),
    });
    const secure = await signInOverHttp(
      `https://dashboard.example.com/sign-in/link/${(await signInLink(d, person.user)).split('/').pop()}`,
      async (url, init) => app.fetch(new Request(url, init)),
    );
    expect(secure.setCookie.find((c) => c.startsWith('ms_session='))).toMatch(/; Secure/);
    const page = await app.fetch(
      new Request(`https://dashboard.example.com/t/${team.id}/`, { headers: { cookie: secure.cookie } }),
    );
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(page.headers.get('content-security-policy')).not.toMatch(/unsafe-inline/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  });

  it('limits password guessing: past 10 failures for an address even the right password answers 429', async () => {
    const { team } = await newTeam();
    const { user } = await personIn(team.id, 'member', 'the right password 1');
    const page = await fetch(`${local().dashboardUrl}/sign-in`);
    const pre = page.headers.getSetCookie()[0]!.split(';')[0]!;
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1]!;
    const attempt = (password: string) =>
      fetch(`${local().dashboardUrl}/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: pre, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: csrf, email: user.email, password }).toString(),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await attempt(`wrong guess ${i}`)).status);
    expect(statuses).toEqual(Array(10).fill(401));
    const locked = await attempt('the right password 1');
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
  }, 60_000);

  it('escapes HTML in contact names and subjects, and shows email bodies only in a sandboxed frame with its own CSP', async () => {
    const t = await sendingTeam();
    const evil = '<img src=x onerror=alert(1)>';
    await t.resend.contacts.create({ email: 'evil@example.com', firstName: evil });
    const sent = await t.resend.emails.send({
      from: t.from,
      to: 'delivered@resend.dev',
      subject: `<script>alert(1)</script> ${randomUUID()}`,
      html: '<script>alert(2)</script><p>body</p>',
    });
    const s = await signInOverHttp((await personIn(t.team.id)).link);
    const contacts = await (await s.get(`/t/${t.team.id}/contacts`)).text();
    expect(contacts).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(contacts).not.toContain(evil);
    const emails = await (await s.get(`/t/${t.team.id}/emails`)).text();
    const detail = await (await s.get(`/t/${t.team.id}/emails/${sent.data!.id}`)).text();
    for (const page of [emails, detail]) {
      expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(page).not.toContain('<script>alert');
    }
    expect(detail).toMatch(/<iframe class="preview" sandbox="" src="[^"]+\/html"/);
    const frame = await s.get(`/t/${t.team.id}/emails/${sent.data!.id}/html`);
    expect(frame.headers.get('content-security-policy')).toMatch(/^sandbox; default-src 'none'/);
    expect(frame.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });
});

describe('dashboard mail and team creation', () => {
  /** A signed-out form: the page's pre-session cookie and CSRF token, then the POST. */
  const signedOutPost = async (path: string, form: Record<string, string>) => {
    const page = await fetch(`${local().dashboardUrl}${path}`);
    const pre = page.headers
      .getSetCookie()
      .find((c) => c.startsWith('ms_pre='))!
      .split(';')[0]!;
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1]!;
    return fetch(`${local().dashboardUrl}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: pre, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, ...form }).toString(),
    });
  };

  it('limits emailed sign-in links per address and per client alike for known and unknown addresses, and answers no faster for an address without an account', async () => {
    // Prepare
    const d = testDeps();
    const { team } = await newTeam();
    const { user } = await personIn(team.id, 'member');
    const nobody = `nobody-${randomUUID().slice(0, 8)}@example.com`;
    const source = `test-${randomUUID()}`;

    // Act: an address's links from several clients, then one client's asks for several addresses.
    const started = Date.now();
    await emailSignInLink(d, nobody, source);
    const unknownTook = Date.now() - started;
    for (let i = 1; i < SIGN_IN_LINKS_PER_ADDRESS; i++) await emailSignInLink(d, nobody, `test-${randomUUID()}`);
    // Each outcome is read as it settles (a refusal left pending would be an unhandled rejection).
    const outcome = (p: Promise<void>) =>
      p.then(
        () => 'sent',
        (error: { statusCode?: number; name?: string }) => `${error.statusCode} ${error.name}`,
      );
    const overAddress = await outcome(emailSignInLink(d, nobody, `test-${randomUUID()}`));
    const known = await outcome(emailSignInLink(d, user.email, `test-${randomUUID()}`));
    for (let i = 1; i < SIGN_IN_LINKS_PER_SOURCE; i++)
      await emailSignInLink(d, `x${i}-${randomUUID().slice(0, 8)}@example.com`, source);
    const overSource = await outcome(emailSignInLink(d, `y-${randomUUID().slice(0, 8)}@example.com`, source));

    // Assess
    expect(unknownTook).toBeGreaterThanOrEqual(295);
    expect(overAddress).toBe('429 rate_limit_exceeded');
    expect(known).toBe('sent');
    expect(overSource).toBe('429 rate_limit_exceeded');
    // The dashboard's form answers the limit as a 429 page.
    const page = await signedOutPost('/sign-in/email', { email: nobody });
    expect(page.status).toBe(429);
    expect(Number(page.headers.get('retry-after'))).toBeGreaterThan(0);
  }, 60_000);

  it("emails a sign-in link and a password link through the service's own send pipeline; each works once; an unknown address gets the same answer and no mail", async () => {
    const { team } = await newTeam();
    const { user } = await personIn(team.id, 'member', 'the first password');
    const asked = await signedOutPost('/sign-in/email', { email: user.email });
    expect(asked.status).toBe(303);
    expect(asked.headers.get('location')).toBe('/sign-in?notice=link-sent');
    const stranger = `nobody-${randomUUID().slice(0, 8)}@example.com`;
    const nobody = await signedOutPost('/sign-in/email', { email: stranger });
    expect(nobody.headers.get('location')).toBe('/sign-in?notice=link-sent');

    const mail = await inboxMessageTo(user.email, 'Your mailstack sign-in link');
    const signInUrl = /href="([^"]+\/sign-in\/link\/[^"]+)"/.exec(mail.body.html)![1]!;
    const passwordUrl = /href="([^"]+\/password\/[^"]+)"/.exec(mail.body.html)![1]!;
    const s = await signInOverHttp(signInUrl);
    expect((await s.get(`/t/${team.id}/`)).status).toBe(200);
    expect((await signedOutPost(new URL(signInUrl).pathname, {})).status).toBe(404); // used once already
    expect((await inboxEmails()).filter((m) => JSON.stringify(m.destination ?? '').includes(stranger))).toEqual([]);

    const path = new URL(passwordUrl).pathname;
    expect((await signedOutPost(path, { password: 'a brand new password' })).status).toBe(303);
    // Used: its page answers 404, with no form to post.
    expect((await fetch(`${local().dashboardUrl}${path}`)).status).toBe(404);
    expect((await signedOutPost('/sign-in', { email: user.email, password: 'the first password' })).status).toBe(401);
    expect((await signedOutPost('/sign-in', { email: user.email, password: 'a brand new password' })).status).toBe(303);
  }, 60_000);

  it("creates more teams from team settings up to the teams-per-person cap of the person's largest plan, then answers 403 plan_limit_reached", async () => {
    const pro = await newTeam({ plan: 'pro' });
    const s = await signInOverHttp((await personIn(pro.team.id)).link);
    expect(await (await s.get(`/t/${pro.team.id}/settings`)).text()).toContain('Create a team');
    // New teams start free, but the cap is the largest of the person's plans: pro allows 5 teams.
    for (const name of ['Second', 'Third', 'Fourth', 'Fifth'])
      expect((await s.post('/teams', { _csrf: s.csrf, name })).status).toBe(303);
    const refused = await s.post('/teams', { _csrf: s.csrf, name: 'Sixth' });
    expect(refused.status).toBe(403);
    const page = await refused.text();
    expect(page).toContain('plan_limit_reached');
    expect(page).toContain('5 team(s) on the pro plan');
    // Someone with no team yet creates their first one from the same form.
    const d = testDeps();
    const loner = await createUser(d, { email: `loner-${randomUUID().slice(0, 8)}@example.com` });
    const l = await signInOverHttp(await signInLink(d, loner));
    const made = await l.post('/teams', { _csrf: l.csrf, name: 'Mine' });
    expect(made.status).toBe(303);
    expect(made.headers.get('location')).toMatch(/^\/t\/[0-9a-f-]{36}\/$/);
    expect((await l.post('/teams', { _csrf: l.csrf, name: 'Another' })).status).toBe(403);
  }, 60_000);
});

describe('people, teams and roles in the core', () => {
  it('caps teams per person by plan with a guarded write: two joins at once on the free plan, one wins', async () => {
    const d = testDeps();
    const user = await createUser(d, { email: `cap-${randomUUID().slice(0, 8)}@example.com` });
    const results = await Promise.allSettled([
      createTeamFor(d, user, 'A'),
      createTeamFor(d, user, 'B'),
      createTeamFor(d, user, 'C'),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected'))
      expect((r as PromiseRejectedResult).reason).toMatchObject({ name: 'plan_limit_reached', statusCode: 403 });
    // Joining a pro team (cap 5) is allowed; the count follows.
    const pro = await createTeam(d, { name: 'Pro', plan: 'pro' });
    await addMember(d, pro, user, 'member');
  });

  it('refuses an action outside the role with 403 forbidden: a member cannot mint keys', async () => {
    const d = testDeps();
    const { team } = await newTeam();
    const { user } = await personIn(team.id, 'member');
    const actor = await actorIn(d, user, team.id);
    await expect(mintApiKey(d, actor, { name: 'x', permission: 'full_access' })).rejects.toMatchObject({
      name: 'forbidden',
      statusCode: 403,
    });
    const other = await newTeam();
    await expect(actorIn(d, user, other.team.id)).rejects.toMatchObject({ name: 'not_found' });
  });

  it('refuses a key permission the service does not have, naming the field (a crafted form is not read as full access)', async () => {
    const d = testDeps();
    const { team } = await newTeam();
    const { user } = await personIn(team.id, 'admin');
    const actor = await actorIn(d, user, team.id);
    await expect(mintApiKey(d, actor, { name: 'x', permission: 'admin_access' })).rejects.toMatchObject({
      name: 'validation_error',
      statusCode: 422,
      message: expect.stringContaining('permission: "admin_access"'),
    });
    await expect(mintApiKey(d, actor, { name: 'y', permission: 'sending_access' })).resolves.toMatchObject({
      key: { permission: 'sending_access' },
    });
  });

  it('keeps one pending invitation an address: a second invitation replaces the first, whose link stops working, and the one accepted leaves none behind', async () => {
    // Prepare
    const d = testDeps();
    const { team } = await newTeam({ plan: 'pro' });
    const { user: owner } = await personIn(team.id, 'owner');
    const actor = await actorIn(d, owner, team.id);
    const email = `twice-${randomUUID().slice(0, 8)}@example.com`;

    // Act
    const first = await inviteMember(d, actor, { email, role: 'member' });
    const second = await inviteMember(d, actor, { email, role: 'admin' });

    // Assess: one invitation listed, the second; of the two links mailed, only its works.
    expect((await listInvitations(d, team.id)).filter((i) => i.email === email).map((i) => i.id)).toEqual([second.id]);
    const mails = await waitFor(
      async () => (await inboxEmails()).filter((m) => JSON.stringify(m.destination ?? '').includes(email)),
      (found) => found.length >= 2,
      { what: 'both invitation mails', timeoutMs: 20_000, everyMs: 200 },
    );
    const tokens = mails.map((m) => /\/invitations\/([A-Za-z0-9_-]+)/.exec(m.body.html)![1]!);
    const working = (await Promise.all(tokens.map((t) => peekInvitation(d, t)))).filter((p) => p !== undefined);
    expect(working.map((p) => p!.invitation.id)).toEqual([second.id]);
    expect(first.id).not.toBe(second.id);
    const token =
      tokens[(await Promise.all(tokens.map((t) => peekInvitation(d, t)))).findIndex((p) => p !== undefined)]!;
    expect(await acceptInvitation(d, token, { name: 'Twice', password: 'a good password 1' })).toMatchObject({
      teamId: team.id,
    });
    expect((await listInvitations(d, team.id)).filter((i) => i.email === email)).toEqual([]);
  });

  it('refuses a key or a team without a name, or with one past 100 characters, naming the field (nothing is renamed or cut)', async () => {
    // Prepare
    const d = testDeps();
    const { team } = await newTeam();
    const { user } = await personIn(team.id, 'owner');
    const actor = await actorIn(d, user, team.id);
    const refused = {
      name: 'validation_error',
      statusCode: 422,
      message: expect.stringMatching(/^`name`: a (key|team) needs a name of 1 to 100 characters/),
    };

    // Act and assess
    for (const name of ['', '   ', 'k'.repeat(101)]) {
      await expect(mintApiKey(d, actor, { name, permission: 'full_access' })).rejects.toMatchObject(refused);
      await expect(createTeamFor(d, user, name)).rejects.toMatchObject(refused);
    }
    await expect(mintApiKey(d, actor, { name: 'k'.repeat(100), permission: 'full_access' })).resolves.toMatchObject({
      key: { name: 'k'.repeat(100) },
    });
  });
});
