/**
 * The call log's rules, apart from its storage (`send-slots.ts`): each recent provider call with
 * two bounds on when the provider saw it, and where one more call may go within the rate. Pure:
 * no table, no clock.
 */

/**
 * One call in the log: the instant it was planned for, the latest instant the provider can have
 * seen it, and how many recipients it carries (1 when absent): SES counts recipients, not calls.
 */
export interface Call {
  readonly at: number;
  readonly by: number;
  readonly n?: number;
}

/**
 * One recipient of a call as the rate counts it. A call of n recipients spends n of the rate: its
 * recipients count as n arrivals spread at the rate from its own (WINDOW_MS / rate apart), as SES
 * lets a message with more recipients than a second's rate through when any of the rate is left,
 * then refuses the calls after it until the rate has recovered.
 */
interface Unit {
  readonly at: number;
  readonly by: number;
  /** Which call of the log it belongs to. */
  readonly call: number;
}

const recipientsOf = (c: Call): number => Math.max(1, c.n ?? 1);

/**
 * How a log's recipients are spread, and its calls' bounds widened: `stepRate`, the rate the
 * provider spreads a call's recipients at (the region's, for a shard's log; default the log's
 * own); `skewMs`, the most two callers' clocks may differ by (each bound is widened by it).
 */
export interface Spread {
  readonly stepRate?: number;
  readonly skewMs?: number;
}

/** The calls' recipients, each a unit, in order of instant; one call's spread at `stepRate` a second. */
const unitsOf = (calls: readonly Call[], stepRate: number): Unit[] => {
  const step = WINDOW_MS / stepRate;
  const units: Unit[] = [];
  calls.forEach((c, call) => {
    for (let k = 0; k < recipientsOf(c); k++) units.push({ at: c.at + k * step, by: c.by + k * step, call });
  });
  return units.sort((a, b) => a.at - b.at);
};

/** The latest instant the provider can have seen the call's last recipient as the rate counts it. */
const lastBy = (c: Call, stepRate: number): number => c.by + (recipientsOf(c) - 1) * (WINDOW_MS / stepRate);

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
 * Whether `calls` (ascending by instant) holds the rate: each recipient a second after the latest
 * bound of the one `rate` places before it (recipients of one call apart: they arrive together,
 * unless another call's recipients fall among them: a call is never planned inside a wide call's
 * spread). Then any `rate + 1` of them span a second as the provider saw them: the last is seen no
 * sooner than its instant, the first no later than its bound.
 */
const withinRate = (calls: readonly Call[], rate: number, stepRate = rate): boolean => {
  const units = unitsOf(calls, stepRate);
  // Where each unit's run of one call's recipients, unbroken by another call's, ends.
  const runEnd = new Array<number>(units.length);
  for (let i = units.length - 1; i >= 0; i--)
    runEnd[i] = i + 1 < units.length && units[i + 1]!.call === units[i]!.call ? runEnd[i + 1]! : i;
  for (let i = 0; i + rate < units.length; i++) {
    const [first, last] = [units[i]!, units[i + rate]!];
    if (runEnd[i]! < i + rate && last.at - first.by < WINDOW_MS) return false;
  }
  return true;
};

/** `calls` with `call` in its place (ascending by instant). */
export const withCall = (calls: readonly Call[], call: Call): Call[] => {
  const i = calls.findIndex((c) => c.at > call.at);
  return i < 0 ? [...calls, call] : [...calls.slice(0, i), call, ...calls.slice(i)];
};

/** A call of `n` recipients planned at `at`, not answered yet (its bound widened by the clocks' skew). */
export const unanswered = (at: number, n = 1, skewMs = 0): Call =>
  n > 1 ? { at, by: at + UNANSWERED_MS + skewMs, n } : { at, by: at + UNANSWERED_MS + skewMs };

/**
 * The earliest instant at or after `from` that `calls` (ascending by instant) can take one more
 * call of `n` recipients at within the rate: `from` itself, or the first instant one of its
 * recipients is a second past a recipient's latest bound; never an instant a call of the log has
 * (each call is named by its instant).
 */
export const firstFreeInstant = (
  calls: readonly Call[],
  rate: number,
  from: number,
  n = 1,
  { stepRate = rate, skewMs = 0 }: Spread = {},
): number => {
  const taken = new Set(calls.map((c) => c.at));
  /** The instant itself, or the first after it no call has: an answer names its call by its instant. */
  const own = (at: number) => {
    while (taken.has(at)) at++;
    return at;
  };
  const step = WINDOW_MS / stepRate;
  const bounds = unitsOf(calls, stepRate).map((u) => u.by + WINDOW_MS);
  const candidates = new Set<number>([from]);
  for (const b of bounds)
    for (let k = 0; k < Math.max(1, n); k++) {
      const c = Math.ceil(b - k * step);
      if (c > from) candidates.add(c);
    }
  for (const candidate of [...candidates].sort((a, b) => a - b)) {
    const at = own(candidate);
    if (withinRate(withCall(calls, unanswered(at, n, skewMs)), rate, stepRate)) return at;
  }
  return own(Math.max(from, ...bounds));
};

/**
 * The calls that can still bound a call planned from `now` on: the log from its first call seen
 * within the last second (a call seen earlier is a second behind any new one). Only a prefix
 * leaves, so the calls that stay keep the places they were checked in.
 */
export const current = (calls: readonly Call[], now: number, stepRate = 1): Call[] => {
  const first = calls.findIndex((c) => lastBy(c, stepRate) > now - WINDOW_MS);
  return first < 0 ? [] : calls.slice(first);
};

/** A stored call: `[at, by]` or `[at, by, recipients]`, or a bare instant (a log written before calls had bounds). */
export const storedCall = (raw: unknown): Call => {
  if (Array.isArray(raw))
    return raw.length > 2 && Number(raw[2]) > 1
      ? { at: Number(raw[0]), by: Number(raw[1]), n: Number(raw[2]) }
      : { at: Number(raw[0]), by: Number(raw[1]) };
  return unanswered(Number(raw));
};

/** A call as stored: `[at, by]`, with its recipients when more than one. */
export const storableCall = (c: Call): number[] => (recipientsOf(c) > 1 ? [c.at, c.by, recipientsOf(c)] : [c.at, c.by]);
