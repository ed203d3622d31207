import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createDeps } from '@mailstack/core/runtime/deps';
import { answeredProviderCall, holdProviderWindow } from '@mailstack/core/table/send-slots';
import { takeBroadcastSlot, takeSendSlot } from '@mailstack/core/table/send-line';
import { shardCount, shardOf } from '@mailstack/core/table/line-shards';
import { broadcastRate } from '@mailstack/core/domain/broadcasts/plan';
import { getItem } from '@mailstack/core/table/ops';
import { keys } from '@mailstack/core/table/keys';
import { itemSize } from '@mailstack/core/table/item-size';
import { busiestSecond } from '../../lib/local/stand-ins/ses.ts';
import { testDeps } from '../support/local.ts';

/** Dependencies at `rate` a second whose clock stands at `clock.t` (it does not wait: plans are made at once). */
const at = (rate: number, clock: { t: number }) =>
  createDeps({ ...testDeps().config, PROVIDER_RATE_PER_SECOND: rate }, { clock: { now: () => clock.t } });

describe('the send line in shards', () => {
  it("at 300 a second takes three shards whose calls together hold the rate in every sliding second, each shard's call log small", async () => {
    // Prepare: 600 sends, each on its id's shard, planned as the workers plan them: a little ahead
    // of their instants (the clock moves to 400 ms before the last batch's calls).
    const clock = { t: Math.floor(Date.now() / 1000) * 1000 + 100 };
    const deps = at(300, clock);
    const region = `shards-${randomUUID()}`;
    expect(shardCount(300)).toBe(3);
    const ids = Array.from({ length: 600 }, (_, i) => `em_${i}_${randomUUID()}`);

    // Act: each takes its place on its shard's line and plans its call in its shard's call log.
    const planned: { shard: number; at: number }[] = [];
    for (let i = 0; i < ids.length; i += 30) {
      clock.t = Math.max(clock.t, ...planned.slice(-30).map((p) => p.at - 400));
      planned.push(
        ...(await Promise.all(
          ids.slice(i, i + 30).map(async (id) => {
            const shard = shardOf(id, 3);
            const slot = await takeSendSlot(deps, region, 1, shard);
            const hold = await holdProviderWindow(deps, region, slot.place, 10_000, undefined, 0, 1, shard);
            expect(hold.kind).toBe('held');
            return { shard, at: hold.at };
          }),
        )),
      );
    }

    // Assess: every shard used about evenly, none past its budget in any second, and all of them
    // together never past the rate (the calls are unanswered: each a second after its bound).
    for (let s = 0; s < 3; s++) {
      const mine = planned.filter((p) => p.shard === s).map((p) => p.at);
      expect(mine.length).toBeGreaterThan(150);
      expect(busiestSecond(mine, 'sliding')).toBeLessThanOrEqual(100);
      const log = await getItem(deps, keys.pacing.calls(region, 300, s, 3));
      // Its last second's calls and those planned ahead: under twice its budget.
      expect((log!.calls as unknown[]).length).toBeLessThan(200);
      // A few KB at most: a few write units a write, a hundred writes a second.
      expect(itemSize(log!)).toBeLessThan(4_096);
    }
    expect(
      busiestSecond(
        planned.map((p) => p.at),
        'sliding',
      ),
    ).toBeLessThanOrEqual(300);
    expect(
      busiestSecond(
        planned.map((p) => p.at),
        'sliding',
      ),
    ).toBeGreaterThan(250);
    // Nothing is written under the key of one line: a line in shards is N lines of their own.
    expect(await getItem(deps, keys.pacing.line(region, 300))).toBeUndefined();
  }, 120_000);

  it('keeps the transactional share of every second across its shards while a broadcast runs', async () => {
    const now = Math.floor(Date.now() / 1000) * 1000 + 100;
    const deps = at(200, { t: now });
    const region = `shards-${randomUUID()}`;
    const shards = shardCount(200);
    const within = (p: { at: number } | undefined) => p !== undefined && p.at < now + 1000;

    // Act: 300 broadcast sends, then 300 transactional ones, at one instant, on their ids' shards.
    const broadcast = await Promise.all(
      Array.from({ length: 300 }, () =>
        takeBroadcastSlot(deps, region, broadcastRate(200), shardOf(`em_${randomUUID()}`, shards)),
      ),
    );
    const transactional: { at: number }[] = [];
    for (let i = 0; i < 300; i++) transactional.push(await takeSendSlot(deps, region, 1, shardOf(`em_${i}`, shards)));

    // Assess: the broadcast takes its share of the second, no more; transactional mail the rest.
    expect(broadcast.filter(within)).toHaveLength(broadcastRate(200));
    const rest = transactional.filter(within).length;
    expect(rest).toBeGreaterThanOrEqual(200 - broadcastRate(200) - 2 * shards);
    expect(rest + broadcastRate(200)).toBeLessThanOrEqual(200);
  }, 120_000);
});

describe("the call log across workers' clocks", () => {
  /**
   * Two workers share a line at `rate`, one clock `skew` ms ahead of the provider's, one `skew`
   * behind; every `rate` calls the other plans (the worst pair: the one behind, then the one ahead
   * a budget later). Each plans just before its call and reports its answer 5 ms after, by its own
   * clock. Answers the provider's busiest sliding second.
   */
  const busiestAcrossClocks = async (setting: number, skew: number, rate: number) => {
    const real = { t: Math.floor(Date.now() / 1000) * 1000 + 100 };
    const config = { ...testDeps().config, PROVIDER_RATE_PER_SECOND: rate, PROVIDER_CLOCK_SKEW_MS: setting };
    const workers = [-skew, skew].map((offset) => ({
      offset,
      deps: createDeps(config, { clock: { now: () => real.t + offset } }),
    }));
    const region = `clocks-${randomUUID()}`;
    const seen: number[] = [];
    for (let k = 0; k < 6 * rate; k++) {
      const { deps, offset } = workers[Math.floor(k / rate) % 2]!;
      const slot = await takeSendSlot(deps, region);
      const hold = await holdProviderWindow(deps, region, slot.place, 10_000);
      expect(hold.kind).toBe('held');
      // The call goes at its instant by the worker's clock: the provider's clock reads it `offset` sooner.
      real.t = Math.max(real.t, hold.at - offset);
      seen.push(hold.at - offset);
      answeredProviderCall(deps, region, hold.at, hold.at + 5);
    }
    return busiestSecond(seen, 'sliding');
  };

  it('holds the rate in every sliding second while the clocks differ by no more than PROVIDER_CLOCK_SKEW_MS', async () => {
    expect(await busiestAcrossClocks(100, 50, 10)).toBeLessThanOrEqual(10);
  }, 60_000);

  it('passes the rate when the clocks differ by more than it allows (the bound is the setting)', async () => {
    expect(await busiestAcrossClocks(1, 50, 10)).toBeGreaterThan(10);
  }, 60_000);
});
