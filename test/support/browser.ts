import { existsSync } from 'node:fs';
import { inject } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Where the browser tests' Chromium comes from, resolved once per test run by the global setup. */
export interface BrowserSource {
  readonly executablePath: string;
  readonly origin: 'npm' | 'system';
}

/** The environment variable that points the browser tests at a Chromium already on the machine. */
export const SYSTEM_CHROMIUM_ENV = 'MAILSTACK_CHROMIUM';

/**
 * Finds the Chromium for the browser tests: the one named by `MAILSTACK_CHROMIUM` when set, otherwise
 * the dev dependency `@sparticuz/chromium` from the npm registry (unpacked to the temp folder on first
 * use). A missing browser is an error that says how to get one, never a skipped test.
 */
export async function resolveBrowser(env: NodeJS.ProcessEnv = process.env): Promise<BrowserSource> {
  const system = env[SYSTEM_CHROMIUM_ENV];
  if (system) {
    if (!existsSync(system)) {
      throw new Error(
        `${SYSTEM_CHROMIUM_ENV}=${system}, but no file is there: point it at a Chromium binary (for example /usr/bin/chromium) or unset it to use the npm package @sparticuz/chromium`,
      );
    }
    return { executablePath: system, origin: 'system' };
  }
  let packaged: typeof import('@sparticuz/chromium').default;
  try {
    packaged = (await import('@sparticuz/chromium')).default;
  } catch (cause) {
    throw new Error(
      'the browser tests need the dev dependency @sparticuz/chromium: run `npm install` (or set MAILSTACK_CHROMIUM to a Chromium binary)',
      { cause },
    );
  }
  return { executablePath: await packaged.executablePath(), origin: 'npm' };
}

/** Headless flags for a test browser: no sandbox (tests run as root in CI), no GPU, no web-security relaxations. */
const ARGS = [
  '--no-sandbox',
  '--no-zygote',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Launches the run's Chromium (resolved by the global setup) headless. Close it in a `finally`. */
export async function launchBrowser(): Promise<Browser> {
  const { executablePath } = inject('browser');
  return chromium.launch({ executablePath, args: ARGS, headless: true, timeout: 20_000 });
}

/** How long one browser step (an action, a navigation, a wait) may take before it fails, named. */
export const STEP_TIMEOUT_MS = 20_000;

/**
 * The options of a describe block whose tests drive Chromium: a failed test is run once more.
 * Chromium on a loaded 2-core host has stalled on a step once in a dozen full runs; every step is
 * bounded, so the failure names the step, and a test that fails twice fails the run.
 */
export const IN_BROWSER = { retry: 1 } as const;

/** Fails with `what` when `promise` has not settled within STEP_TIMEOUT_MS. */
export const bounded = <T>(promise: Promise<T>, what: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${STEP_TIMEOUT_MS} ms`)), STEP_TIMEOUT_MS);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
};

/**
 * A page in a context of its own (its own cookies: a separate person), 1280 × 900 unless told.
 * Every step on it fails within STEP_TIMEOUT_MS with what it waited for, so a stalled browser
 * names its step instead of running into the test's own timeout.
 */
export async function openPage(browser: Browser, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context = await bounded(browser.newContext({ viewport }), 'opening a browser context');
  context.setDefaultTimeout(STEP_TIMEOUT_MS);
  context.setDefaultNavigationTimeout(STEP_TIMEOUT_MS);
  return bounded(context.newPage(), 'opening a page');
}

declare module 'vitest' {
  export interface ProvidedContext {
    browser: BrowserSource;
  }
}
