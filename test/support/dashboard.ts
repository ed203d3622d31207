import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { createUser } from '@mailstack/core/domain/people/create-user';
import { addMember } from '@mailstack/core/domain/people/add-member';
import { signInLink } from '@mailstack/core/domain/people/sign-in-link';
import { getTeam } from '@mailstack/core/domain/teams/team';
import type { Role } from '@mailstack/core/domain/people/roles';
import { local, testDeps } from './local.ts';
import { waitFor } from './wait.ts';
import { bounded } from './browser.ts';

/** The dashboard's origin in this test run. */
export const dashboardUrl = () => local().dashboardUrl;

/** The cookies of a Set-Cookie list as a Cookie header (name=value pairs only). */
const cookiesOf = (res: Response): Record<string, string> =>
  Object.fromEntries(
    res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!.split('='))
      .map(([k, ...v]) => [k!, v.join('=')]),
  );

/** A dashboard session over plain HTTP (no browser): its cookie, CSRF token and helpers. */
export interface HttpSession {
  readonly cookie: string;
  readonly setCookie: string[];
  csrf: string;
  get(path: string): Promise<Response>;
  post(path: string, form: Record<string, string>): Promise<Response>;
}

/** Follows a one-time sign-in link over HTTP and returns the session it starts. */
export const signInOverHttp = async (
  link: string,
  fetcher: (url: string, init?: RequestInit) => Promise<Response> = fetch,
): Promise<HttpSession> => {
  const page = await fetcher(link);
  const pre = cookiesOf(page);
  const token = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
  const done = await fetcher(link, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: `ms_pre=${pre.ms_pre}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: token }).toString(),
  });
  expect(done.status).toBe(303);
  const session = cookiesOf(done).ms_session!;
  const cookie = `ms_session=${session}`;
  const origin = new URL(link).origin;
  const s: HttpSession = {
    cookie,
    setCookie: done.headers.getSetCookie(),
    csrf: '',
    get: (path) => fetcher(`${origin}${path}`, { redirect: 'manual', headers: { cookie } }),
    post: (path, form) =>
      fetcher(`${origin}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      }),
  };
  const home = await fetcher(`${origin}/`, { headers: { cookie } });
  s.csrf = /name="_csrf" value="([^"]+)"/.exec(await home.text())?.[1] ?? '';
  return s;
};

/** A new person in a team with a role, and a one-time sign-in link for them. */
export const personIn = async (teamId: string, role: Role = 'owner', password?: string) => {
  const d = testDeps();
  const user = await createUser(d, {
    email: `p-${randomUUID().slice(0, 8)}@example.com`,
    name: 'Test person',
    password,
  });
  await addMember(d, (await getTeam(d, teamId))!, user, role);
  return { user, link: await signInLink(d, user) };
};

/** Runs axe-core in the page (its source evaluated through the protocol, so the page's CSP stays strict) and returns the serious and critical violations. */
export const seriousViolations = async (page: Page): Promise<string[]> => {
  // Page-side code as strings: this project compiles without the DOM library.
  if (!(await page.evaluate('typeof window.axe !== "undefined"')))
    await bounded(page.evaluate(axe.source), 'loading axe-core');
  const result: any = await bounded(
    page.evaluate('window.axe.run(document, { resultTypes: ["violations"] })'),
    'the axe-core check',
  );
  return result.violations
    .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v: any) =>
        `${v.id} (${v.impact}): ${v.help} at ${v.nodes
          .map((n: any) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    );
};

/** Where the browser tests write their screenshots (a test artifact). */
export const SHOTS = resolve(import.meta.dirname, '..', '..', 'test-results', 'dashboard');

/**
 * Checks a page with axe-core (its serious and critical violations go to `violations`, named by
 * the page) and photographs it whole at 1280 and 390 px wide into SHOTS.
 */
export const look = async (page: Page, name: string, violations: string[]): Promise<void> => {
  mkdirSync(SHOTS, { recursive: true });
  violations.push(...(await seriousViolations(page)).map((v) => `${name}: ${v}`));
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: resolve(SHOTS, `${name}-${width}.png`), fullPage: true });
    if (width === 390) {
      // On a phone nothing scrolls sideways: not the page, not a table.
      const wide = (await page.evaluate(`[
        ...(document.documentElement.scrollWidth > window.innerWidth ? ['the page'] : []),
        ...[...document.querySelectorAll('.table-wrap')].filter((w) => w.scrollWidth > w.clientWidth + 1).map((w) => 'the table "' + (w.querySelector('caption')?.textContent ?? '') + '"'),
      ]`)) as string[];
      violations.push(...wide.map((what) => `${name}: at 390 px ${what} scrolls sideways`));
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
};

/**
 * Reloads `page` until what `read` takes from it satisfies `done` (the service works in the
 * background; the page shows it on its next load); answers that value, or fails naming `what`.
 */
export const reloadUntil = <T>(
  page: Page,
  read: (page: Page) => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = 20_000,
): Promise<T> => {
  let first = true;
  return waitFor(
    async () => {
      if (!first) await page.reload();
      first = false;
      return read(page);
    },
    done,
    { what, timeoutMs, everyMs: 500 },
  );
};
