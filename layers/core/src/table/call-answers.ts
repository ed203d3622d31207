import type { Deps } from '../runtime/deps.ts';
import { keys } from './keys.ts';
import { clockSkewMs, lineLane } from './line-rate.ts';
import { seenKeyOf } from './send-line.ts';
import { type Call, current, type Spread, WINDOW_MS } from './call-log.ts';

/**
 * A region's call logs (one per shard of its line, line-shards.ts) as this process addresses them,
 * and the answers its calls got, which travel in the log with its next plans (send-slots.ts).
 */
/** A shard's call log: its lane, its key, whose view this process keeps, and how its calls are spread and widened. */
export const logOf = (deps: Deps, region: string, shard: number) => {
  const lane = lineLane(deps, region, shard);
  const key = keys.pacing.calls(region, lane.rate, lane.shard, lane.shards, lane.widenMs);
  const spread: Spread = { stepRate: lane.rate, skewMs: lane.widenMs };
  return { lane, key, seenKey: seenKeyOf(deps, key), spread };
};

/** Answers this process's calls got, per call log, kept for a while to travel with its next plans (a failed write loses none). */
const answers = new Map<string, Call[]>();
/** How long a reported answer waits to be written with a plan: past it, it bounds no call still to be planned. */
const ANSWER_KEPT_MS = 2 * WINDOW_MS;

/** `calls` with this process's reported answers applied: each answered call's bound moves to its answer (never later). */
const withAnswers = (calls: readonly Call[], seenKey: string, now: number): Call[] => {
  const mine = (answers.get(seenKey) ?? []).filter((a) => a.by > now - ANSWER_KEPT_MS);
  if (mine.length === 0) {
    answers.delete(seenKey);
    return [...calls];
  }
  answers.set(seenKey, mine);
  const out = [...calls];
  for (const a of mine) {
    const i = out.findIndex((c) => c.at === a.at);
    if (i < 0 || out[i]!.by <= a.by) continue;
    out[i] = { ...out[i]!, by: Math.max(out[i]!.at, a.by) };
  }
  return out;
};

/**
 * The calls a plan made at `now` is held against: the log's current calls with this process's
 * answers applied, less `replacing` (a plan its call gives back: it could not go out then).
 */
export const heldAgainst = (
  calls: readonly Call[],
  seenKey: string,
  now: number,
  stepRate: number,
  replacing?: number,
): Call[] => {
  const kept = current(withAnswers(calls, seenKey, now), now, stepRate);
  const given = replacing === undefined ? -1 : kept.findIndex((c) => c.at === replacing);
  if (given >= 0) kept.splice(given, 1);
  return kept;
};

/**
 * Reports that the provider answered the call planned at `at` by `answeredAt` (it saw it by then):
 * the call's bound in the log moves there with this process's next plan, and the calls a second
 * after it may go that much sooner.
 */
export const answeredProviderCall = (deps: Deps, region: string, at: number, answeredAt: number, shard = 0): void => {
  const { seenKey } = logOf(deps, region, shard);
  const list = answers.get(seenKey) ?? [];
  list.push({ at, by: answeredAt + clockSkewMs(deps) });
  answers.set(seenKey, list);
};
