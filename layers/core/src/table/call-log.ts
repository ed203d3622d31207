/**
 * The call log's rules, apart from its storage (`send-slots.ts`): each recent provider call with
 * two bounds on when the provider saw it, and where one more call may go within the rate. Pure:
 * no table, no clock.
 */

/** One call in the log: the instant it was planned for, and the latest instant the provider can have seen it. */
export interface Call {
  readonly at: number;
  readonly by: number;
}

/**
 * A call that would go out later than its planned instant by more than this is planned again. A
 * call that goes late costs the rate its lateness (the calls a second after it wait for its
 * answer); one planned again costs its whole place, so the tolerance is wide.
 */
export const CALL_TOLERANCE_MS = 50;
/**
 * How late after its instant the provider may see a call whose answer is not known yet: the
 * tolerance, and the request's way there (up to 93 ms seen on a loaded 2-core host, 20 ms on an
 * idle one). A call is planned a second after the answer of the call `rate` places before, known
 * by then, so this bound holds only for a caller that died with its call in flight, or a call
 * planned more than a second ahead.
 */
export const UNANSWERED_MS = CALL_TOLERANCE_MS + 100;
/** The window the provider holds the rate over. */
export const WINDOW_MS = 1000;

/**
 * Whether `calls` (ascending by instant) holds the rate: each call a second after the latest bound
 * of the one `rate` places before it. Then any `rate + 1` of them span a second as the provider
 * saw them: the last is seen no sooner than its instant, the first no later than its bound.
 */
const withinRate = (calls: readonly Call[], rate: number): boolean => {
  for (let i = 0; i + rate < calls.length; i++) if (calls[i + rate]!.at - calls[i]!.by < WINDOW_MS) return false;
  return true;
};

/** `calls` with `call` in its place (ascending by instant). */
export const withCall = (calls: readonly Call[], call: Call): Call[] => {
  const i = calls.findIndex((c) => c.at > call.at);
  return i < 0 ? [...calls, call] : [...calls.slice(0, i), call, ...calls.slice(i)];
};

/** A call planned at `at`, not answered yet. */
export const unanswered = (at: number): Call => ({ at, by: at + UNANSWERED_MS });

/**
 * The earliest instant at or after `from` that `calls` (ascending by instant) can take one more
 * call at within the rate: `from` itself, or the first instant a second has passed since a call's
 * latest bound; never an instant a call of the log has (each call is named by its instant).
 */
export const firstFreeInstant = (calls: readonly Call[], rate: number, from: number): number => {
  const taken = new Set(calls.map((c) => c.at));
  /** The instant itself, or the first after it no call has: an answer names its call by its instant. */
  const own = (at: number) => {
    while (taken.has(at)) at++;
    return at;
  };
  for (const candidate of [from, ...calls.map((c) => c.by + WINDOW_MS).filter((c) => c > from)].sort((a, b) => a - b)) {
    const at = own(candidate);
    if (withinRate(withCall(calls, unanswered(at)), rate)) return at;
  }
  return own(Math.max(from, ...calls.map((c) => c.by + WINDOW_MS)));
};

/**
 * The calls that can still bound a call planned from `now` on: the log from its first call seen
 * within the last second (a call seen earlier is a second behind any new one). Only a prefix
 * leaves, so the calls that stay keep the places they were checked in.
 */
export const current = (calls: readonly Call[], now: number): Call[] => {
  const first = calls.findIndex((c) => c.by > now - WINDOW_MS);
  return first < 0 ? [] : calls.slice(first);
};

/** A stored call: `[at, by]`, or a bare instant (a log written before calls had bounds). */
export const storedCall = (raw: unknown): Call => {
  if (Array.isArray(raw)) return { at: Number(raw[0]), by: Number(raw[1]) };
  return unanswered(Number(raw));
};
