import type { Deps } from '../../../runtime/deps.ts';
import { keys } from '../../../table/keys.ts';
import { addToCounters } from '../../../table/ops.ts';

/**
 * Waits for a provider send slot: at most PROVIDER_RATE_PER_SECOND sends per second and region
 * across every worker, counted in one conditional write per send on that second's item.
 */
export const acquireSendSlot = async (deps: Deps, region: string, deadlineMs = 30_000): Promise<void> => {
  const rate = deps.config.PROVIDER_RATE_PER_SECOND;
  const giveUp = deps.clock.now() + deadlineMs;
  for (;;) {
    const now = deps.clock.now();
    const second = Math.floor(now / 1000);
    if (await addToCounters(deps, keys.pacing.second(region, second), { add: { sends: 1 }, ceilings: { sends: rate }, expiresAt: second + 120 })) return;
    if (now > giveUp) throw new Error('no provider send slot within the deadline');
    // Wait for the next second, with a little jitter so workers do not stampede.
    await new Promise((r) => setTimeout(r, (second + 1) * 1000 - now + Math.random() * 20));
  }
};
