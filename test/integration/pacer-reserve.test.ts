import { describe, expect, it } from 'vitest';
import { createDeps } from '@mailstack/core/runtime/deps';
import { placeSpacingMs, takeBroadcastSlot, takeSendSlot, WINDOW_MARGIN_MS } from '@mailstack/core/table/send-line';
import { broadcastRate } from '@mailstack/core/domain/broadcasts/plan';
import { testDeps } from '../support/local.ts';

/**
 * Takes places at one frozen instant; returns how many are due within the coming second (one
 * second and the line's margin; transactional places past it are booked ahead, not counted).
 */
const grant = async (
  deps: ReturnType<typeof createDeps>,
  region: string,
  kind: 'broadcast' | 'transactional',
  tries: number,
) => {
  const now = deps.clock.now();
  let granted = 0;
  for (let i = 0; i < tries; i++) {
    const place =
      kind === 'broadcast'
        ? await takeBroadcastSlot(deps, region, broadcastRate(deps.config.PROVIDER_RATE_PER_SECOND))
        : await takeSendSlot(deps, region);
    if (place && place.at < now + 1000 + WINDOW_MARGIN_MS) granted++;
  }
  return granted;
};

describe('the provider pacer keeps 30% for transactional mail while a broadcast runs', () => {
  it('holds broadcast sends to 70% of a second and still admits transactional sends up to the provider rate', async () => {
    // Prepare: a frozen instant in the millisecond of one of the line's places (so exactly 20 places
    // are due within the coming second, whatever the wall clock's phase), a provider rate of 20 a second, a region of its own.
    const base = testDeps();
    const second = Math.floor(Date.now() / 1000) * 1000;
    const onPlace = Math.floor(Math.ceil((second + 100) / placeSpacingMs(20)) * placeSpacingMs(20));
    const deps = createDeps({ ...base.config, PROVIDER_RATE_PER_SECOND: 20 }, { clock: { now: () => onPlace } });
    const region = `test-${crypto.randomUUID()}`;

    // Act
    const broadcast = await grant(deps, region, 'broadcast', 30);
    const transactional = await grant(deps, region, 'transactional', 30);

    // Assess
    expect(broadcast).toBe(14);
    expect(transactional).toBe(6);
    expect(transactional / 20).toBeGreaterThanOrEqual(0.3);
  });

  it('lets transactional mail take the whole second when it comes first, and broadcasts only what is left', async () => {
    const base = testDeps();
    const second = Math.floor(Date.now() / 1000) * 1000;
    const deps = createDeps({ ...base.config, PROVIDER_RATE_PER_SECOND: 20 }, { clock: { now: () => second + 100 } });
    const region = `test-${crypto.randomUUID()}`;
    expect(await grant(deps, region, 'transactional', 18)).toBe(18);
    // The broadcast takes only places due within the coming second: what the transactional mail left.
    const left = await grant(deps, region, 'broadcast', 10);
    expect(left).toBeGreaterThanOrEqual(1);
    expect(left).toBeLessThanOrEqual(2);
  });

  it('gives every broadcast send racing into an idle line its place, up to the broadcast share', async () => {
    // Prepare: a line last used in an earlier second, then 20 broadcast sends at once in a new one.
    const base = testDeps();
    const second = Math.floor(Date.now() / 1000) * 1000;
    const earlier = createDeps(
      { ...base.config, PROVIDER_RATE_PER_SECOND: 20 },
      { clock: { now: () => second - 5_000 } },
    );
    const deps = createDeps({ ...base.config, PROVIDER_RATE_PER_SECOND: 20 }, { clock: { now: () => second + 100 } });
    const region = `test-${crypto.randomUUID()}`;
    expect(await takeBroadcastSlot(earlier, region, 14)).toBeDefined();

    // Act
    const answers = await Promise.all(Array.from({ length: 20 }, () => takeBroadcastSlot(deps, region, 14)));

    // Assess: the losers of the restart race still take places; only the share's ceiling refuses.
    expect(answers.filter(Boolean)).toHaveLength(14);
  });
});
