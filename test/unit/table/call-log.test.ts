import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type Call, firstFreeInstant, UNANSWERED_MS } from '@mailstack/core/table/call-log';

const unanswered = (at: number): Call => ({ at, by: at + UNANSWERED_MS });

/** The most instants of `times` within any sliding second (the window (t − 1000, t], as the stand-in counts it). */
const busiestSliding = (times: readonly number[]): number => {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; j < sorted.length; j++) {
    while (sorted[i]! <= sorted[j]! - 1000) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
};

describe('the call log', () => {
  it('plans a call at its place when the last second allows, else a second after the latest bound of the call `rate` places before', () => {
    expect(firstFreeInstant([], 2, 500)).toBe(500);
    expect(firstFreeInstant([unanswered(100), unanswered(200)], 3, 300)).toBe(300);
    // Two unanswered calls within a second at a rate of 2: the third waits a second past the first's bound.
    expect(firstFreeInstant([unanswered(100), unanswered(200)], 2, 300)).toBe(100 + UNANSWERED_MS + 1000);
    // Answered in 3 ms, the first frees its second that much sooner.
    expect(
      firstFreeInstant(
        [
          { at: 100, by: 103 },
          { at: 200, by: 202 },
        ],
        2,
        300,
      ),
    ).toBe(1103);
    // A gap between planned calls is used when it keeps every second within the rate.
    expect(firstFreeInstant([unanswered(0), unanswered(2_000)], 2, 900)).toBe(900);
    // No gap that would put three calls within a second: the first instant every second holds two.
    expect(firstFreeInstant([unanswered(0), unanswered(500), unanswered(1_200)], 2, 600)).toBe(
      500 + UNANSWERED_MS + 1000,
    );
    // A new call leaves a second to the calls planned after it: at 1,003 it would crowd the call at 1,100.
    expect(firstFreeInstant([{ at: 0, by: 3 }, unanswered(1_100)], 1, 500)).toBe(1_100 + UNANSWERED_MS + 1000);
  });

  it('never lets the provider see more than the rate within any sliding second, however each call is answered', () => {
    // Calls planned one after another from instants chosen at random; each seen by the provider
    // within UNANSWERED_MS of its instant and answered at or after that, soon or late; an answer
    // reaches the log only once it came, and some never do (their caller died).
    const call = fc.record({
      gap: fc.integer({ min: 0, max: 400 }),
      seen: fc.integer({ min: 0, max: UNANSWERED_MS }),
      answerAfter: fc.integer({ min: 0, max: 300 }),
      reported: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(call, { minLength: 1, maxLength: 60 }), (rate, plans) => {
        let now = 0;
        const log: { at: number; seenAt: number; answeredAt: number; reported: boolean }[] = [];
        for (const p of plans) {
          now += p.gap;
          // The log as a planner sees it now: answers that have come by now, the rest unanswered.
          const view = log
            .map((c) => (c.reported && c.answeredAt <= now ? { at: c.at, by: c.answeredAt } : unanswered(c.at)))
            .sort((a, b) => a.at - b.at);
          const at = firstFreeInstant(view, rate, now + 30);
          expect(at).toBeGreaterThanOrEqual(now + 30);
          const seenAt = at + p.seen;
          log.push({ at, seenAt, answeredAt: seenAt + p.answerAfter, reported: p.reported });
        }
        expect(busiestSliding(log.map((c) => c.seenAt))).toBeLessThanOrEqual(rate);
      }),
      { numRuns: 400 },
    );
  });

  it('holds a backlog answered within 3 ms to a second and 3 ms for each `rate` calls, each call at an instant of its own', () => {
    // Calls at 14 a second, all ready at once, each answered 3 ms after its instant.
    const rate = 14;
    const log: Call[] = [];
    for (let n = 0; n <= 10 * rate; n++) {
      const at = firstFreeInstant(log, rate, 0);
      log.push({ at, by: at + 3 });
      log.sort((a, b) => a.at - b.at);
    }
    expect(new Set(log.map((c) => c.at)).size).toBe(log.length);
    // The first call of the eleventh second.
    expect(log.at(-1)!.at).toBe(10 * 1003);
  });
});
