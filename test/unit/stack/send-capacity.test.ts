import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  DEFAULT_SEND_CONCURRENCY_CEILING,
  DEFAULT_SEND_MS_PER_EMAIL,
  SEND_HEADROOM,
  sendCapacity,
  sendWorkerConcurrency,
} from '../../../lib/send-capacity.ts';
import { readStackConfig } from '../../../lib/config.ts';

const at = (ratePerSecond: number, more: Partial<Parameters<typeof sendCapacity>[0]> = {}) =>
  sendCapacity({ ratePerSecond, msPerEmail: 250, batchSize: 10, ceiling: 1000, ...more });

describe('the concurrency a sending worker needs', () => {
  it.each([
    // C = ceil(H × R × t / B) + 1, with H = 2, t = 0.25 s, B = 10.
    { rate: 1, concurrency: 2 },
    { rate: 14, concurrency: 2 },
    { rate: 20, concurrency: 2 },
    { rate: 21, concurrency: 3 },
    { rate: 100, concurrency: 6 },
    { rate: 1000, concurrency: 51 },
    { rate: 2000, concurrency: 101 },
  ])('at $rate recipients a second is $concurrency invocations', ({ rate, concurrency }) => {
    expect(SEND_HEADROOM).toBe(2);
    expect(at(rate).concurrency).toBe(concurrency);
  });

  it('holds the rate it was derived from, and the figure one lower does not', () => {
    for (const rate of [14, 50, 333, 1000, 4000]) {
      // Prepare
      const { concurrency, holds } = at(rate);
      // Act: the rate one invocation fewer holds, by the same arithmetic.
      const fewer = sendCapacity({ ratePerSecond: rate, msPerEmail: 250, batchSize: 10, ceiling: concurrency - 1 });
      // Assess
      expect(holds, `${rate}/s`).toBeGreaterThanOrEqual(rate);
      if (concurrency > 2) expect(fewer.holds, `${rate}/s`).toBeLessThan(rate);
    }
  });

  it('grows with the time a send takes and shrinks with the batch an invocation takes', () => {
    expect(at(1000, { msPerEmail: 500 }).concurrency).toBe(101);
    expect(at(1000, { batchSize: 5 }).concurrency).toBe(101);
    expect(at(1000, { batchSize: 1 }).concurrency).toBe(501);
  });

  it("keeps within SQS event sources' 2 to 1,000 and the ceiling, saying what the rate needs", () => {
    expect(at(1000, { ceiling: 20 })).toEqual({ needed: 51, concurrency: 20, holds: 380 });
    expect(at(100_000).concurrency).toBe(1000);
    expect(at(100_000).needed).toBe(5001);
    expect(at(0.5).concurrency).toBe(2);
  });

  it('refuses a rate, time, batch or ceiling that is not a positive number, naming it', () => {
    expect(() => at(0)).toThrow(/ratePerSecond must be a positive number, got 0/);
    expect(() => at(14, { msPerEmail: Number.NaN })).toThrow(/msPerEmail must be a positive number/);
  });
});

describe("the stack's settings for it", () => {
  const settings = (context: Record<string, unknown>) => readStackConfig((k) => context[k]);

  it('derive the figure from mailstack:providerRatePerSecond, the default time per send and the default ceiling', () => {
    // Act
    const config = settings({});
    const fast = settings({ 'mailstack:providerRatePerSecond': 1000 });
    // Assess
    expect(config.sendCapacity).toEqual({
      ceiling: DEFAULT_SEND_CONCURRENCY_CEILING,
      msPerEmail: DEFAULT_SEND_MS_PER_EMAIL,
    });
    expect(sendWorkerConcurrency(config, { batchSize: 10 }).concurrency).toBe(2);
    expect(sendWorkerConcurrency(fast, { batchSize: 10 }).concurrency).toBe(51);
    expect(sendWorkerConcurrency(fast, {}).concurrency).toBe(51);
  });

  it('take mailstack:sendConcurrency as the figure itself, as before, and say the rate it holds', () => {
    const config = settings({ 'mailstack:providerRatePerSecond': 1000, 'mailstack:sendConcurrency': 3 });
    expect(sendWorkerConcurrency(config, { batchSize: 10 })).toEqual({ needed: 51, concurrency: 3, holds: 40 });
  });

  it('cap the derived figure at mailstack:sendConcurrencyCeiling and take the time from mailstack:sendMsPerEmail', () => {
    const config = settings({
      'mailstack:providerRatePerSecond': 1000,
      'mailstack:sendConcurrencyCeiling': 30,
      'mailstack:sendMsPerEmail': 100,
    });
    expect(sendWorkerConcurrency(config, { batchSize: 10 })).toMatchObject({ needed: 21, concurrency: 21 });
    const capped = settings({ 'mailstack:providerRatePerSecond': 1000, 'mailstack:sendConcurrencyCeiling': 30 });
    expect(sendWorkerConcurrency(capped, { batchSize: 10 })).toMatchObject({ needed: 51, concurrency: 30 });
  });

  it.each([
    {
      key: 'mailstack:sendConcurrency',
      value: 1,
      message: /mailstack:sendConcurrency must be a whole number from 2 to 1000, got 1/,
    },
    { key: 'mailstack:sendConcurrencyCeiling', value: 1001, message: /from 2 to 1000, got 1001/ },
    {
      key: 'mailstack:sendMsPerEmail',
      value: 0,
      message: /mailstack:sendMsPerEmail must be a whole number from 1 to 60000, got 0/,
    },
  ])('refuse $key = $value, saying what is allowed', ({ key, value, message }) => {
    expect(() => settings({ [key]: value })).toThrow(message);
  });
});

describe('the table of docs/aws.md, Sending at high rates', () => {
  it("gives for each rate the figure, the three workers' total and the rate it holds, as the rule derives them", () => {
    // Prepare: the rows of the table under the section's heading.
    const doc = readFileSync(new URL('../../../docs/aws.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('## Sending at high rates'));
    const rows = section
      .split('\n')
      .filter((line) => /^\| [\d,]+ /.test(line))
      .map((line) => line.split('|').map((cell) => Number(cell.trim().split(' ')[0]!.replace(/[,/s]/g, ''))));
    expect(rows.length).toBeGreaterThanOrEqual(4);
    for (const [, rate, each, all, holds] of rows) {
      // Act
      const derived = sendCapacity({
        ratePerSecond: rate!,
        msPerEmail: DEFAULT_SEND_MS_PER_EMAIL,
        batchSize: 10,
        ceiling: DEFAULT_SEND_CONCURRENCY_CEILING,
      });
      // Assess
      expect({ rate, each, all, holds }).toEqual({
        rate,
        each: derived.concurrency,
        all: 3 * derived.concurrency,
        holds: derived.holds,
      });
    }
  });
});
