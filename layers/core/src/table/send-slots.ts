import type { Deps } from '../runtime/deps.ts';
import { addToCounters } from './ops.ts';
import { keys } from './keys.ts';

/** A send slot, or how long to wait for one. */
export type SlotOutcome = { readonly granted: true } | { readonly granted: false; readonly retryInSeconds: number };

/**
 * Takes one provider send slot of this second in a region, never waiting: at most
 * PROVIDER_RATE_PER_SECOND sends per second and region across every worker (one conditional
 * write on that second's item). When the second is full, the refusal is counted on the same
 * item and the n-th refused send is told to come back in 1 + floor(n / rate) seconds, so a
 * backlog spreads evenly over the seconds ahead instead of every refused send retrying at once.
 */
export const takeSendSlot = async (deps: Deps, region: string): Promise<SlotOutcome> => {
  const rate = deps.config.PROVIDER_RATE_PER_SECOND;
  const second = Math.floor(deps.clock.now() / 1000);
  const key = keys.pacing.second(region, second);
  if (await addToCounters(deps, key, { add: { sends: 1 }, ceilings: { sends: rate }, expiresAt: second + 120 })) return { granted: true };
  const counted = await addToCounters(deps, key, { add: { refused: 1 }, expiresAt: second + 120 });
  const refused = Number(counted?.refused ?? 1);
  return { granted: false, retryInSeconds: Math.min(900, 1 + Math.floor((refused - 1) / rate)) };
};
