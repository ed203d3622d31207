import { describe, expect, it, vi } from 'vitest';
import { existsSync } from 'node:fs';
import { bounded, resolveBrowser, STEP_TIMEOUT_MS, SYSTEM_CHROMIUM_ENV } from '../../support/browser.ts';

describe("the browser tests' Chromium", () => {
  it('comes from the npm registry when no system browser is asked for', async () => {
    // Act
    const source = await resolveBrowser({});

    // Assess
    expect(source.origin).toBe('npm');
    expect(existsSync(source.executablePath)).toBe(true);
  });

  it('is the system binary named by MAILSTACK_CHROMIUM when it exists', async () => {
    // Act
    const source = await resolveBrowser({ [SYSTEM_CHROMIUM_ENV]: process.execPath });

    // Assess
    expect(source).toEqual({ executablePath: process.execPath, origin: 'system' });
  });

  it('fails with how to fix it when MAILSTACK_CHROMIUM names no file, rather than skipping', async () => {
    // Act
    const resolving = resolveBrowser({ [SYSTEM_CHROMIUM_ENV]: '/nowhere/chromium' });

    // Assess
    await expect(resolving).rejects.toThrow(
      /MAILSTACK_CHROMIUM=\/nowhere\/chromium, but no file is there: point it at a Chromium binary .* or unset it/,
    );
  });
});

describe('a browser step', () => {
  it('fails naming what it waited for when it does not settle within the step timeout', async () => {
    // Prepare
    vi.useFakeTimers();
    try {
      const stalled = bounded(new Promise(() => {}), 'the axe-core check');
      const outcome = stalled.catch((error: Error) => error.message);

      // Act
      await vi.advanceTimersByTimeAsync(STEP_TIMEOUT_MS);

      // Assess
      expect(await outcome).toBe(`the axe-core check took longer than ${STEP_TIMEOUT_MS} ms`);
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers what the step answered when it settles in time', async () => {
    // Act
    const value = await bounded(Promise.resolve(42), 'opening a page');

    // Assess
    expect(value).toBe(42);
  });
});
