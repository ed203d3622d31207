import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, IN_BROWSER } from '../support/browser.ts';
import { dashboardUrl, look as lookAt, personIn, reloadUntil } from '../support/dashboard.ts';
import { sendingTeam } from '../support/sending.ts';
import { waitFor } from '../support/wait.ts';

/** A step key long enough to wrap if the page let it break inside a word. */
const LONG_KEY = 'send-the-welcome-message-to-new-customers';

/**
 * An automation in headless Chromium: its steps drawn as a flow with both branches of its
 * condition, each step name whole on its line; a run opened from the runs list with its contact
 * and each step's outcome; enable, disable and stop through the same use cases as the API (what
 * the SDK then reads), and none of them for a member. Each page is checked with axe-core at 1280
 * and 390 px.
 */
describe('automations in a browser', IN_BROWSER, () => {
  let browser: Browser;
  let page: Page;
  let t: Awaited<ReturnType<typeof sendingTeam>>;
  let id = '';
  let base = '';
  const violations: string[] = [];
  const look = (p: Page, name: string) => lookAt(p, name, violations);

  /**
   * The step names and types the browser broke inside a word: a line that starts after a
   * character other than a space or a hyphen (breaking after a hyphen is between words).
   */
  const brokenNames = (p: Page) =>
    p.evaluate(`[...document.querySelectorAll('.step-box .step-key, .step-box .step-type, td .step-key')]
      .filter((el) => {
        const text = el.firstChild;
        if (!text || !text.length) return false;
        const r = document.createRange();
        let top;
        for (let i = 0; i < text.length; i++) {
          r.setStart(text, i); r.setEnd(text, i + 1);
          const rect = r.getClientRects()[0];
          if (!rect) continue;
          if (top !== undefined && rect.top > top + 2 && !/[ -]/.test(text.data[i - 1])) return true;
          top = rect.top;
        }
        return false;
      })
      .map((el) => el.textContent)`) as Promise<string[]>;

  beforeAll(async () => {
    t = await sendingTeam();
    const template = (
      await t.resend.templates.create({ name: 'Hello', from: t.from, subject: 'Hello', html: '<p>Hello</p>' } as any)
    ).data!.id;
    const segment = (await t.resend.segments.create({ name: 'Others' })).data!.id;
    const { data, error } = await t.resend.automations.create({
      name: 'Greeting',
      status: 'enabled',
      steps: [
        { key: 'start', type: 'trigger', config: { eventName: 'user.joined' } },
        {
          key: 'is-ada',
          type: 'condition',
          config: { type: 'rule', field: 'contact.first_name', operator: 'eq', value: 'Ada' },
        },
        { key: LONG_KEY, type: 'send_email', config: { template: { id: template }, subject: 'Welcome Ada' } },
        { key: 'file-elsewhere', type: 'add_to_segment', config: { segmentId: segment } },
      ],
      connections: [
        { from: 'start', to: 'is-ada' },
        { from: 'is-ada', to: LONG_KEY, type: 'condition_met' },
        { from: 'is-ada', to: 'file-elsewhere', type: 'condition_not_met' },
      ],
    });
    expect(error).toBeNull();
    id = data!.id;
    base = `${dashboardUrl()}/t/${t.team.id}/automations/${id}`;
    browser = await launchBrowser();
    page = await openPage(browser);
    await page.goto((await personIn(t.team.id, 'admin')).link);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/t\/[0-9a-f-]{36}\/$/);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('draws the steps as a flow from the trigger, both branches of the condition side by side, no step name broken', async () => {
    // Act
    await page.goto(base);
    // Assess
    const flow = page.getByRole('list', { name: 'Steps as a flow' });
    const boxes = await flow.locator('.step-box .step-key').allTextContents();
    expect(boxes).toEqual(['start', 'is-ada', LONG_KEY, 'file-elsewhere']);
    const branches = flow.locator('li.branch');
    expect(await branches.locator(':scope > .branch-label').allTextContents()).toEqual(['if met', 'if not met']);
    expect(await branches.nth(0).locator('.step-key').textContent()).toBe(LONG_KEY);
    expect(await branches.nth(1).locator('.step-key').textContent()).toBe('file-elsewhere');
    const [met, notMet] = await Promise.all([branches.nth(0).boundingBox(), branches.nth(1).boundingBox()]);
    expect(notMet!.x).toBeGreaterThan(met!.x + met!.width - 1);
    expect(await brokenNames(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 900 });
    expect(await brokenNames(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
    await look(page, 'automation-flow');
  }, 60_000);

  it("opens a run from the runs list: the contact, and each step's status and outcome", async () => {
    // Prepare
    await t.resend.contacts.create({ email: `ada@${t.domain}`, firstName: 'Ada', lastName: 'Lovelace' });
    // Act
    await t.resend.events.send({ event: 'user.joined', email: `ada@${t.domain}` });
    const [run] = await waitFor(
      async () => (await t.resend.automations.runs.list({ automationId: id, status: 'completed' })).data!.data,
      (runs) => runs.length === 1,
      { what: 'the run completed', timeoutMs: 30_000 },
    );
    await page.goto(base);
    await reloadUntil(
      page,
      (p) => p.getByRole('link', { name: run!.id }).count(),
      (n) => n === 1,
      'the run listed',
    );
    const row = await page.locator('main tbody tr').first().locator('td').allTextContents();
    expect(row[1]).toBe(`ada@${t.domain} (Ada Lovelace)`);
    await page.getByRole('link', { name: run!.id }).click();
    // Assess
    expect(await page.textContent('h1')).toBe('Run of Greeting');
    expect(await page.textContent('main .card')).toContain(`ada@${t.domain}`);
    const steps = await page
      .locator('main tbody tr')
      .evaluateAll((rows) => rows.map((r) => [...(r as any).cells].slice(1, 5).map((c: any) => c.textContent.trim())));
    const api = (await t.resend.automations.runs.get({ automationId: id, runId: run!.id })).data!;
    expect(steps.map((s) => [s[0]!.split(' ').pop(), s[2]])).toEqual(api.steps.map((s) => [s.key, s.status]));
    expect(steps[1]![3]).toBe('the condition was met');
    expect(steps[2]![3]).toBe('sent the email');
    const emailId = (api.steps[2]!.output as { email_id: string }).email_id;
    expect(await page.getByRole('link', { name: 'the email' }).getAttribute('href')).toBe(
      `/t/${t.team.id}/emails/${emailId}`,
    );
    expect(await brokenNames(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 900 });
    expect(await brokenNames(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
    await look(page, 'automation-run');
  }, 60_000);

  it('disables, enables and stops the automation through the same use cases as the API', async () => {
    await page.goto(base);
    // Act + Assess: each button, then what the SDK reads
    await page.getByRole('button', { name: 'Disable', exact: true }).click();
    await page.waitForURL(/notice=disabled$/);
    expect((await t.resend.automations.get(id)).data!.status).toBe('disabled');
    await look(page, 'automation-disabled');
    await page.getByRole('button', { name: 'Enable', exact: true }).click();
    await page.waitForURL(/notice=enabled$/);
    expect((await t.resend.automations.get(id)).data!.status).toBe('enabled');
    expect(await page.getByRole('status').textContent()).toContain('Enabled');
    await page.getByRole('button', { name: 'Stop and cancel running runs' }).click();
    await page.waitForURL(/notice=stopped$/);
    expect((await t.resend.automations.get(id)).data!.status).toBe('disabled');
    expect(await page.getByRole('button', { name: 'Enable', exact: true }).count()).toBe(1);
  }, 60_000);

  it('shows a member the automation without the buttons, and refuses their forged change (403)', async () => {
    const member = await personIn(t.team.id, 'member');
    const other = await openPage(browser);
    await other.goto(member.link);
    await other.getByRole('button', { name: 'Continue' }).click();
    await other.waitForLoadState();
    await other.goto(base);
    expect(await other.getByRole('button', { name: 'Enable', exact: true }).count()).toBe(0);
    expect(await other.textContent('main')).toContain('may read automations but not');
    const csrf = await other.locator('input[name="_csrf"]').first().getAttribute('value');
    const forged = await other.request.post(`${base}/enable`, { form: { _csrf: csrf! } });
    expect(forged.status()).toBe(403);
    expect((await t.resend.automations.get(id)).data!.status).toBe('disabled');
  }, 60_000);

  it('has no serious or critical accessibility violation on any page visited', () => {
    expect(violations).toEqual([]);
  });
});
