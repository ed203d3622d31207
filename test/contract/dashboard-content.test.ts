import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, IN_BROWSER } from '../support/browser.ts';
import { newTeam, testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { dashboardUrl, look, personIn, signInOverHttp } from '../support/dashboard.ts';
import { inboxMessage } from '../support/inbox.ts';
import { clearOfUtcMidnight, waitFor } from '../support/wait.ts';
import { countSends } from '@mailstack/core/domain/quotas/reserve-quota';

type Team = Awaited<ReturnType<typeof sendingTeam>>;

/** Opens a browser page signed in as a new person with `role` in the team, on the team's overview. */
const signedIn = async (
  browser: Browser,
  teamId: string,
  role: 'owner' | 'admin' | 'member' = 'owner',
): Promise<Page> => {
  const page = await openPage(browser);
  await page.goto((await personIn(teamId, role)).link);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(new RegExp(`/t/${teamId}/$`));
  return page;
};

/** The text of the sandboxed preview frame's body, once it contains `expected` (the frame is reloaded by the page). */
const frameText = (page: Page, name: string, expected: string): Promise<string> =>
  waitFor(
    async () =>
      (await page
        .frame({ name })
        ?.textContent('body')
        .catch(() => '')) ?? '',
    (text) => text.includes(expected),
    { what: `the ${name} frame showing "${expected}"`, timeoutMs: 10_000, everyMs: 200 },
  );

/**
 * The templates and broadcasts pages in headless Chromium: a template is created, previewed as it
 * is typed, edited, published, used by the SDK, duplicated and deleted; a broadcast is drafted,
 * sent on a team whose daily quota paces it over two UTC days, followed while it sends, and
 * canceled. Every page is checked with axe-core and photographed at 1280 and 390 px.
 */
describe('templates and broadcasts pages in a browser', IN_BROWSER, () => {
  let browser: Browser;
  const violations: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('creates a template with a live preview, edits and publishes it; the SDK sends with the saved version; duplicates and deletes', async () => {
    const t = await sendingTeam();
    const owner = await signedIn(browser, t.team.id);
    const base = `${dashboardUrl()}/t/${t.team.id}/templates`;
    await owner.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Templates' }).click();
    await owner.waitForURL(base);
    await look(owner, 'templates-empty', violations);
    await owner.getByRole('link', { name: 'New template' }).click();
    await owner.waitForURL(`${base}/new`);

    const alias = `shipped-${randomUUID().slice(0, 8)}`;
    await owner.getByLabel('Name', { exact: true }).fill('Order shipped');
    await owner.getByLabel(/^Alias/).fill(alias);
    await owner.getByLabel(/^Subject/).fill('Order {{{ORDER_ID}}} shipped');
    await owner.getByLabel('Name of variable 1').fill('NAME');
    await owner.getByLabel('Fallback value of variable 1').fill('friend');
    await owner.getByLabel('Name of variable 2').fill('ORDER_ID');
    // Typing re-renders the preview (the script posts the unsaved fields into the sandboxed frame).
    await owner
      .getByLabel('HTML', { exact: true })
      .fill(
        '<h1 style="color:#1f4fd1">Hi {{{NAME}}}</h1><p>Order <b>{{{ORDER_ID}}}</b> is on its way.</p><script>parent.document.title = "ran"</script>',
      );
    const preview = await frameText(owner, 'template-preview', 'Hi friend');
    expect(preview).toContain('Hi friend');
    expect(preview).toContain('Order [ORDER_ID] is on its way.');
    expect(await owner.getAttribute('iframe[name="template-preview"]', 'sandbox')).toBe('');
    await look(owner, 'template-new', violations);
    await owner.getByRole('button', { name: 'Create template' }).click();
    await owner.waitForURL(/\/templates\/[0-9a-f-]{36}\?notice=created$/);
    const id = new URL(owner.url()).pathname.split('/').pop()!;
    expect(await owner.textContent('h1')).toBe('Order shipped');
    expect(await owner.textContent('main .card')).toContain('No fallback, shown as samples: ORDER_ID');
    expect(await frameText(owner, 'template-preview', 'Hi friend')).toContain('Order [ORDER_ID]');

    // Edit: the preview follows the unsaved change; saving makes it live.
    await owner
      .getByLabel('HTML', { exact: true })
      .fill('<h1>Hello {{{NAME}}}</h1><p>Order <b>{{{ORDER_ID}}}</b> left the warehouse.</p>');
    expect(await frameText(owner, 'template-preview', 'left the warehouse')).toContain('Hello friend');
    await owner.getByRole('button', { name: 'Save template' }).click();
    await owner.waitForURL(/notice=saved$/);
    await owner.getByRole('button', { name: 'Publish' }).click();
    await owner.waitForURL(/notice=published$/);
    expect(await owner.textContent('main .card')).toMatch(/published · Published \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(await owner.title()).not.toBe('ran');
    await look(owner, 'template-edit', violations);

    const subject = `Order A-${randomUUID().slice(0, 6)} shipped`;
    const sent = await t.resend.emails.send({
      from: t.from,
      to: 'delivered@resend.dev',
      template: { id: alias, variables: { ORDER_ID: subject.split(' ')[1]! } },
    } as any);
    expect(sent.error).toBeNull();
    const mail = await inboxMessage(subject);
    expect(mail.body.html).toContain('left the warehouse');
    expect((await t.resend.templates.get(id)).data).toMatchObject({
      alias,
      name: 'Order shipped',
      status: 'published',
    });

    await owner.getByRole('button', { name: 'Duplicate' }).click();
    await owner.waitForURL(/notice=duplicated$/);
    expect(await owner.textContent('h1')).toBe('Order shipped (copy)');
    const copy = new URL(owner.url()).pathname.split('/').pop()!;
    expect(copy).not.toBe(id);
    await owner.getByRole('button', { name: 'Delete template' }).click();
    await owner.waitForURL(`${base}?notice=deleted`);
    expect(await owner.locator('main table').textContent()).not.toContain('(copy)');
    expect((await t.resend.templates.get(copy)).error).toMatchObject({ statusCode: 404 });
    await look(owner, 'templates', violations);

    // A member sees the template and its preview, without forms.
    const member = await signedIn(browser, t.team.id, 'member');
    await member.goto(`${base}/${id}`);
    expect(await member.getByRole('button', { name: 'Publish' }).count()).toBe(0);
    expect(await member.textContent('main')).toContain('may see and preview templates but not change them');
    await look(member, 'template-member', violations);
    await member.close();
    await owner.close();
  }, 120_000);

  it('drafts a broadcast, sends it on a team whose daily quota paces it, follows its progress and cancels it', async () => {
    // The quota day is the UTC day: midnight must not pass between the 97 counted and the checks.
    await clearOfUtcMidnight();
    const t: Team = await sendingTeam({ plan: 'free' });
    // The team already sent 97 of its 100 emails today: 3 recipients go now, 3 wait for the next UTC day.
    await countSends(testDeps(), t.team, 97);
    const segment = (await t.resend.segments.create({ name: 'Newsletter readers' })).data!.id;
    for (let i = 0; i < 6; i++)
      await t.resend.contacts.create({
        email: `reader${i}-${t.team.id.slice(-8)}@example.com`,
        segments: [{ id: segment }],
      } as any);

    const owner = await signedIn(browser, t.team.id);
    const base = `${dashboardUrl()}/t/${t.team.id}/broadcasts`;
    await owner.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Broadcasts' }).click();
    await owner.waitForURL(base);
    await owner.getByRole('link', { name: 'New broadcast' }).click();
    await owner.getByLabel(/^Name/).fill('November news');
    await owner.getByLabel(/^Segment/).selectOption({ label: 'Newsletter readers' });
    await owner.getByLabel(/^From/).fill(t.from);
    await owner.getByLabel(/^Subject/).fill('November <news>');
    await owner
      .getByLabel('HTML', { exact: true })
      .fill(
        '<p>Hi {{{FIRST_NAME|there}}}, here is the news.</p><p><a href="{{{UNSUBSCRIBE_URL}}}">Unsubscribe</a></p>',
      );
    await look(owner, 'broadcast-new', violations);
    await owner.getByRole('button', { name: 'Save draft' }).click();
    await owner.waitForURL(/\/broadcasts\/[0-9a-f-]{36}\?notice=created$/);
    const id = new URL(owner.url()).pathname.split('/').pop()!;
    expect(await owner.textContent('h1')).toBe('November news');
    expect(await owner.textContent('main .card')).toContain('November <news>');
    await look(owner, 'broadcast-draft', violations);

    // Enter in the time field submits with the first button, Send now: the time is not thrown away, nothing is sent.
    await owner.getByLabel('Schedule for (optional)').fill('in 2 hours');
    const [refused] = await Promise.all([
      owner.waitForResponse((r) => r.request().method() === 'POST'),
      owner.getByLabel('Schedule for (optional)').press('Enter'),
    ]);
    expect(refused.status()).toBe(422);
    expect(await owner.textContent('main')).toContain('press Schedule to send then, or clear it and press Send now');
    expect(((await t.resend.broadcasts.get(id)).data as any).status).toBe('draft');
    await owner.goto(`${base}/${id}`);

    await owner.getByRole('button', { name: 'Send now' }).click();
    await owner.waitForURL(/notice=paced$/);
    const api = (await t.resend.broadcasts.get(id)).data as any;
    expect(api.status).toBe('sending');
    const midnight = Math.ceil(Date.now() / 86_400_000) * 86_400_000;
    expect(Date.parse(api.finishes_at)).toBeGreaterThanOrEqual(midnight);
    // The page shows the same finish, as a time (the script turns it into the reader's zone) and how far it is.
    expect(await owner.getAttribute('#progress time', 'datetime')).toBe(api.finishes_at);
    expect(await owner.textContent('#progress')).toMatch(/\(in \d+ (h|min)/);
    expect(await owner.textContent('#progress')).toContain(
      "The team's plan sends 100 emails a UTC day; 97 were already used on the start day.",
    );
    expect(await owner.textContent('#progress')).toContain('planned over 2 UTC days');
    // The progress refreshes in place until today's share is out.
    await waitFor(
      () => owner.textContent('#progress .big'),
      (text) => Boolean(text?.includes('3 of 6 sent')),
      { what: 'the progress showing 3 of 6 sent', timeoutMs: 30_000, everyMs: 300 },
    );
    expect(await owner.textContent('#progress')).toMatch(/sending/);
    await look(owner, 'broadcast-sending', violations);
    await owner.goto(base);
    expect(await owner.locator('tr', { hasText: 'November news' }).textContent()).toContain('sending');
    await look(owner, 'broadcasts', violations);

    await owner.goto(`${base}/${id}`);
    await owner.getByRole('button', { name: 'Cancel broadcast' }).click();
    await owner.waitForURL(/notice=canceled$/);
    const read = await waitFor(
      async () => (await t.resend.broadcasts.get(id)).data as any,
      (b) => b?.canceled_remaining === 3,
      { what: 'the broadcast canceled with 3 remaining', timeoutMs: 10_000, everyMs: 200 },
    );
    expect(read).toMatchObject({ status: 'canceled', sent_count: 3, canceled_remaining: 3, finishes_at: null });
    await owner.reload();
    expect(await owner.textContent('#progress')).toContain('3 recipients not sent to');
    expect(await owner.getByRole('button', { name: 'Cancel broadcast' }).count()).toBe(0);
    await look(owner, 'broadcast-canceled', violations);
    await owner.close();
  }, 310_000);

  it('has no serious or critical accessibility violation on any page visited', () => {
    expect(violations).toEqual([]);
  });
});

describe('templates and broadcasts pages: roles, tenancy, CSRF, escaping', () => {
  const form = (s: { csrf: string }, fields: Record<string, string> = {}) => ({ _csrf: s.csrf, ...fields });

  it('lets a member read templates and draft broadcasts, but answers 403 forbidden to publishing, editing, sending and canceling', async () => {
    const t = await sendingTeam();
    const segment = (await t.resend.segments.create({ name: 'S' })).data!.id;
    const template = (await t.resend.templates.create({ name: 'T', html: '<p>x</p>' })).data!.id;
    const sending = (
      await t.resend.broadcasts.create({
        segmentId: segment,
        from: t.from,
        subject: 'live',
        text: 'x',
        send: true,
        scheduledAt: 'in 1 hour',
      } as any)
    ).data!.id;
    const before = (await t.resend.templates.get(template)).data!;
    const s = await signInOverHttp((await personIn(t.team.id, 'member')).link);
    const base = `/t/${t.team.id}`;

    expect((await s.get(`${base}/templates/${template}`)).status).toBe(200);
    for (const [path, fields] of [
      [`${base}/templates/${template}/publish`, {}],
      [`${base}/templates/${template}/edit`, { name: 'changed', html: '<p>y</p>' }],
      [`${base}/templates/${template}/delete`, {}],
      [`${base}/templates`, { name: 'new', html: '<p>z</p>' }],
    ] as const) {
      const res = await s.post(path, form(s, fields));
      expect(res.status, path).toBe(403);
      expect(await res.text(), path).toContain('forbidden');
    }
    expect((await s.get(`${base}/templates/new`)).status).toBe(403);
    expect((await t.resend.templates.get(template)).data).toMatchObject({
      name: 'T',
      published_at: before.published_at,
    });

    // Members draft broadcasts; an owner or admin sends them.
    const drafted = await s.post(
      `${base}/broadcasts`,
      form(s, { name: 'Member draft', segment_id: segment, from: t.from, subject: 'From a member', text: 'hello' }),
    );
    expect(drafted.status).toBe(303);
    const draft = drafted.headers.get('location')!.split('/').pop()!.split('?')[0]!;
    expect((await t.resend.broadcasts.get(draft)).data).toMatchObject({ name: 'Member draft', status: 'draft' });
    const page = await (await s.get(`${base}/broadcasts/${draft}`)).text();
    expect(page).not.toContain('Send now');
    const refused = await s.post(`${base}/broadcasts/${draft}/send`, form(s, { when: 'now' }));
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('broadcasts:send');
    expect((await t.resend.broadcasts.get(draft)).data).toMatchObject({ status: 'draft' });
    expect((await s.post(`${base}/broadcasts/${sending}/cancel`, form(s))).status).toBe(403);
    expect(((await t.resend.broadcasts.get(sending)).data as any).status).toBe('scheduled');
  });

  it("answers another team's templates and broadcasts with 404 on every page and form, and changes nothing", async () => {
    const theirs = await sendingTeam();
    const segment = (await theirs.resend.segments.create({ name: 'S' })).data!.id;
    const template = (
      await theirs.resend.templates.create({
        name: 'Their template',
        html: '<p>private</p>',
        alias: `theirs-${randomUUID().slice(0, 8)}`,
      })
    ).data!.id;
    const draft = (
      await theirs.resend.broadcasts.create({
        segmentId: segment,
        from: theirs.from,
        subject: 'private',
        html: '<p>private</p>',
      })
    ).data!.id;
    const mine = await newTeam();
    const s = await signInOverHttp((await personIn(mine.team.id)).link);
    const base = `/t/${mine.team.id}`;
    for (const path of [
      `${base}/templates/${template}`,
      `${base}/templates/${template}/preview`,
      `${base}/broadcasts/${draft}`,
      `${base}/broadcasts/${draft}/html`,
      `/t/${theirs.team.id}/templates`,
      `/t/${theirs.team.id}/broadcasts`,
    ]) {
      const res = await s.get(path);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).not.toContain('private');
    }
    for (const path of [
      `${base}/templates/${template}/publish`,
      `${base}/templates/${template}/delete`,
      `${base}/templates/${template}/duplicate`,
      `${base}/templates/${template}/edit`,
      `${base}/broadcasts/${draft}/send`,
      `${base}/broadcasts/${draft}/cancel`,
      `${base}/broadcasts/${draft}/delete`,
      `${base}/broadcasts/${draft}/duplicate`,
      `${base}/broadcasts/${draft}/edit`,
    ]) {
      expect((await s.post(path, form(s, { name: 'x', html: '<p>x</p>', when: 'now' }))).status, path).toBe(404);
    }
    expect((await theirs.resend.templates.get(template)).data).toMatchObject({ name: 'Their template' });
    expect((await theirs.resend.broadcasts.get(draft)).data).toMatchObject({ status: 'draft', subject: 'private' });
    expect((await mine.resend.templates.list()).data!.data).toEqual([]);
    expect((await mine.resend.broadcasts.list()).data!.data).toEqual([]);
  });

  it("refuses template and broadcast forms without the session's CSRF token", async () => {
    const t = await sendingTeam();
    const template = (await t.resend.templates.create({ name: 'T', html: '<p>x</p>' })).data!.id;
    const segment = (await t.resend.segments.create({ name: 'S' })).data!.id;
    const draft = (await t.resend.broadcasts.create({ segmentId: segment, from: t.from, subject: 's', text: 'x' }))
      .data!.id;
    const before = (await t.resend.templates.get(template)).data!;
    const s = await signInOverHttp((await personIn(t.team.id)).link);
    for (const path of [
      `/t/${t.team.id}/templates/${template}/publish`,
      `/t/${t.team.id}/templates/${template}/delete`,
      `/t/${t.team.id}/templates/preview`,
      `/t/${t.team.id}/broadcasts/${draft}/send`,
      `/t/${t.team.id}/broadcasts`,
    ]) {
      for (const csrf of [undefined, 'not-the-token-of-this-session']) {
        const res = await s.post(path, { ...(csrf ? { _csrf: csrf } : {}), html: '<p>x</p>', when: 'now' });
        expect(res.status, path).toBe(403);
      }
    }
    expect((await t.resend.templates.get(template)).data).toMatchObject({ published_at: before.published_at });
    expect((await t.resend.broadcasts.get(draft)).data).toMatchObject({ status: 'draft' });
    expect((await t.resend.broadcasts.list()).data!.data).toHaveLength(1);
  });

  it('escapes names and subjects, and renders template and broadcast HTML only in sandboxed frames with their own CSP', async () => {
    const t = await sendingTeam();
    const evil = '<img src=x onerror=alert(1)>';
    const segment = (await t.resend.segments.create({ name: evil })).data!.id;
    const template = (
      await t.resend.templates.create({
        name: evil,
        subject: `${evil} {{{X}}}`,
        html: '<script>alert(2)</script><p>{{{X}}}</p>',
        variables: [{ key: 'X', type: 'string', fallbackValue: '<b>fallback</b>' }],
      } as any)
    ).data!.id;
    const draft = (
      await t.resend.broadcasts.create({
        name: evil,
        segmentId: segment,
        from: t.from,
        subject: evil,
        html: '<script>alert(3)</script>',
      })
    ).data!.id;
    const s = await signInOverHttp((await personIn(t.team.id)).link);
    const base = `/t/${t.team.id}`;
    for (const path of [
      `${base}/templates`,
      `${base}/templates/${template}`,
      `${base}/broadcasts`,
      `${base}/broadcasts/${draft}`,
    ]) {
      const page = await (await s.get(path)).text();
      expect(page, path).toContain('&lt;img src=x onerror=alert(1)&gt;');
      expect(page, path).not.toContain(evil);
      expect(page, path).not.toContain('<script>alert');
    }
    for (const [path, res] of [
      ['saved preview', await s.get(`${base}/templates/${template}/preview`)],
      [
        'unsaved preview',
        await s.post(`${base}/templates/preview`, form(s, { html: '<script>alert(4)</script><p>{{{Y}}}</p>' })),
      ],
      ['broadcast html', await s.get(`${base}/broadcasts/${draft}/html`)],
    ] as const) {
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-security-policy'), path).toMatch(/^sandbox; default-src 'none'/);
      expect(res.headers.get('x-frame-options'), path).toBe('SAMEORIGIN');
    }
    // Variable values are data: the declared fallback is escaped in the rendered HTML, as a send escapes it.
    expect(await (await s.get(`${base}/templates/${template}/preview`)).text()).toContain(
      '<p>&lt;b&gt;fallback&lt;/b&gt;</p>',
    );
    expect(await (await s.post(`${base}/templates/preview`, form(s, { html: '<p>{{{Y}}}</p>' }))).text()).toBe(
      '<p>[Y]</p>',
    );
    for (const page of [
      await (await s.get(`${base}/templates/${template}`)).text(),
      await (await s.get(`${base}/broadcasts/${draft}`)).text(),
    ]) {
      expect(page).toMatch(/<iframe [^>]*class="preview" sandbox=""/);
    }
  });

  it('keeps what was typed when the core refuses a form, with the error above it', async () => {
    const t = await sendingTeam();
    const taken = `taken-${randomUUID().slice(0, 8)}`;
    await t.resend.templates.create({ name: 'First', html: '<p>x</p>', alias: taken } as any);
    const s = await signInOverHttp((await personIn(t.team.id)).link);
    const res = await s.post(
      `/t/${t.team.id}/templates`,
      form(s, {
        name: 'Second draft',
        alias: taken,
        html: '<p>kept body</p>',
        var_key_0: 'lower_ok',
        var_type_0: 'number',
        var_fallback_0: 'not a number',
      }),
    );
    expect(res.status).toBe(422);
    const page = await res.text();
    expect(page).toContain('variables.0.fallback_value');
    expect(page).toContain('value="Second draft"');
    expect(page).toContain('&lt;p&gt;kept body&lt;/p&gt;');
    const conflict = await s.post(
      `/t/${t.team.id}/templates`,
      form(s, { name: 'Second', alias: taken, html: '<p>x</p>' }),
    );
    expect(conflict.status).toBe(409);
    expect(await conflict.text()).toContain(`already has the alias \`${taken}\``);
    expect((await t.resend.templates.list()).data!.data).toHaveLength(1);
  });
});
