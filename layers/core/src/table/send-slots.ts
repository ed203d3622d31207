import type { Deps } from '../runtime/deps.ts';
import { addToCounters, updateItem } from './ops.ts';
import { keys } from './keys.ts';

/**
 * A place in the line: `granted` when its second has come (send now), else booked in `second`,
 * `retryInSeconds` ahead (the job comes back then and sends without asking again).
 */
export type SlotOutcome = { readonly granted: boolean; readonly second: number; readonly retryInSeconds: number };

/**
 * Takes the next place in the region's line of provider sends, never waiting: the line hands
 * out PROVIDER_RATE_PER_SECOND places per second across every worker (one counter, `next` =
 * epoch second × rate + place). A place in the current second sends now; a later one is booked:
 * the job goes back on the queue until its second, so a backlog fills every second ahead at the
 * rate, in order, and nothing sent later can jump the line. An idle line restarts at this second.
 */
export const takeSendSlot = async (deps: Deps, region: string, broadcastCeiling?: number): Promise<SlotOutcome> => {
  const rate = deps.config.PROVIDER_RATE_PER_SECOND;
  const nowSecond = Math.floor(deps.clock.now() / 1000);
  const first = nowSecond * rate;
  const key = keys.pacing.line(region, rate);
  for (;;) {
    // The usual case under load: the line is at or past this second; take its next place.
    const taken = await updateItem(deps, key, { add: { next: 1 } }, { attr: 'next', ge: first });
    let slot: number | undefined = taken ? Number(taken.next) - 1 : undefined;
    // The line fell behind (no sends lately): restart it at this second, unless another sender just did.
    if (slot === undefined && (await updateItem(deps, key, { set: { next: first + 1 } }, { or: [{ attr: 'next', absent: true }, { attr: 'next', lt: first }] }))) slot = first;
    if (slot === undefined) continue;
    const second = Math.floor(slot / rate);
    return { granted: second <= nowSecond, second, retryInSeconds: Math.max(0, second - nowSecond) };
  }
};

/**
 * A broadcast send's place: in the current second only, never booked ahead (so transactional
 * mail is never queued behind a broadcast), and only within the broadcast share of that second
 * (a per-second counter with `ceiling`), so the rest of every second stays open to transactional
 * mail while a broadcast runs. False: no place now; the job comes back in a second.
 */
export const takeBroadcastSlot = async (deps: Deps, region: string, ceiling: number): Promise<boolean> => {
  const rate = deps.config.PROVIDER_RATE_PER_SECOND;
  const nowSecond = Math.floor(deps.clock.now() / 1000);
  if (!(await addToCounters(deps, keys.pacing.broadcastSecond(region, nowSecond), { add: { sends: 1 }, ceilings: { sends: ceiling }, expiresAt: nowSecond + 120 }))) return false;
  const first = nowSecond * rate;
  const line = keys.pacing.line(region, rate);
  // Twice: when senders race to restart an idle line, the ones that lose take a place in it after.
  for (let attempt = 0; attempt < 2; attempt++) {
    if (await updateItem(deps, line, { add: { next: 1 } }, { and: [{ attr: 'next', ge: first }, { attr: 'next', lt: first + rate }] })) return true;
    // An idle line (behind this second) restarts here, as a transactional send would restart it.
    if (await updateItem(deps, line, { set: { next: first + 1 } }, { or: [{ attr: 'next', absent: true }, { attr: 'next', lt: first }] })) return true;
  }
  return false;
};
