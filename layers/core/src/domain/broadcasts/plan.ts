import { MailstackError } from '../../errors/mailstack-error.ts';

/**
 * The pacing planner: turns a broadcast's eligible audience, the provider rate, the reserve kept
 * for transactional mail and the team's daily quota into a schedule, so `finishes_at` is the
 * instant the schedule puts the last send at. Pure: the fan-out derives each recipient's slot from
 * the same plan (`slotAt`), so what is announced is what is paced.
 */

/** Share of the provider rate broadcasts leave to transactional mail (spec §8). */
export const TRANSACTIONAL_RESERVE = 0.3;
/** Upstream quota horizon: a broadcast may need at most this many days of capacity (spec §8). */
export const MAX_BROADCAST_DAYS = 24;
const DAY_MS = 86_400_000;

/** The sends per second broadcasts may take of a provider rate, leaving at least the reserve. */
export const broadcastRate = (providerRate: number): number =>
  Math.max(1, Math.floor(providerRate * (1 - TRANSACTIONAL_RESERVE)));

/** What the planner reads. */
export interface PlanInput {
  /** Recipients to schedule. */
  readonly audience: number;
  /** The deployment's provider rate per second in the sender's region. */
  readonly providerRate: number;
  readonly now: number;
  /** When the sender asked it to start (scheduled_at), else now. */
  readonly requestedAt: number;
  /** When the broadcasts ahead in the region release its broadcast capacity (0 when none). */
  readonly busyUntil: number;
  /** Daily plans: the cap and what the team has used today; null when no daily cap applies. */
  readonly daily: { readonly cap: number; readonly usedToday: number } | null;
  /**
   * Monthly plans with overage off: what the period's included volume still holds and when the
   * period renews. Recipients past it are parked until the renewal (spec §8); null otherwise.
   */
  readonly monthly?: { readonly left: number; readonly renewsAt: number } | null;
}

/** A warning of the send response (spec §4 Broadcasts). */
export interface PlanWarning {
  readonly type: 'paced' | 'queued_behind';
  readonly days: number;
  readonly message: string;
}

/** The schedule of a broadcast: enough to place every recipient (`slotAt`) and to answer the send. */
export interface Plan {
  readonly startsAt: number;
  /** Broadcast sends per second. */
  readonly rate: number;
  /** Daily cap (null: none) and what the start day had already used. */
  readonly dailyCap: number | null;
  readonly usedOnStartDay: number;
  /** Monthly parking: recipients the current period still holds, and its renewal (null: none). */
  readonly periodLeft?: number | null;
  readonly renewsAt?: number | null;
  readonly audience: number;
  /** The instant of the last send (the start when the audience is empty). */
  readonly finishesAt: number;
  /** Calendar span in days (at least 1 when there is anyone to send to). */
  readonly days: number;
  readonly warning: PlanWarning | null;
}

/** Refused: the audience needs more than MAX_BROADCAST_DAYS of capacity. */
export class BroadcastTooLarge extends MailstackError {
  constructor(
    readonly audience: number,
    readonly days: number,
    readonly perDay: number,
  ) {
    super(
      `This broadcast needs about ${days} days of sending capacity (${audience} recipients at ${perDay} a day); the limit is ${MAX_BROADCAST_DAYS} days. Split the segment or raise the plan's daily quota.`,
    );
  }
}

const startOfDay = (t: number): number => Math.floor(t / DAY_MS) * DAY_MS;

/** How many sends day `d` (0 = the start day) of a plan can hold. */
const dayCapacity = (p: Pick<Plan, 'startsAt' | 'rate' | 'dailyCap' | 'usedOnStartDay'>, d: number): number => {
  const seconds = d === 0 ? (startOfDay(p.startsAt) + DAY_MS - p.startsAt) / 1000 : DAY_MS / 1000;
  const byRate = Math.floor(seconds * p.rate);
  if (p.dailyCap === null) return byRate;
  return Math.max(0, Math.min(byRate, d === 0 ? p.dailyCap - p.usedOnStartDay : p.dailyCap));
};

type Schedule = Pick<Plan, 'startsAt' | 'rate' | 'dailyCap' | 'usedOnStartDay' | 'periodLeft' | 'renewsAt'>;

/**
 * The instant the plan sends recipient `index` (0-based), parking past each day's capacity until
 * the next UTC day, and past the monthly period's included volume until its renewal.
 */
export const slotAt = (p: Schedule, index: number): number => {
  if (p.periodLeft != null && p.renewsAt != null && index >= p.periodLeft) {
    // The renewed period starts no earlier than one slot after the current period's last send.
    const lastBefore =
      p.periodLeft > 0 ? slotAt({ ...p, periodLeft: null }, p.periodLeft - 1) + Math.ceil(1000 / p.rate) : p.startsAt;
    return slotAt(
      { ...p, startsAt: Math.max(p.renewsAt, lastBefore), usedOnStartDay: 0, periodLeft: null, renewsAt: null },
      index - p.periodLeft,
    );
  }
  let left = index;
  for (let d = 0; d < 10_000; d++) {
    const capacity = dayCapacity(p, d);
    if (left < capacity) {
      const dayStart = d === 0 ? p.startsAt : startOfDay(p.startsAt) + d * DAY_MS;
      return dayStart + Math.floor((left * 1000) / p.rate);
    }
    left -= capacity;
  }
  return Number.POSITIVE_INFINITY;
};

const iso = (t: number) => new Date(t).toISOString();

/** Plans a broadcast; throws BroadcastTooLarge past the 24-day horizon. */
export const planBroadcast = (input: PlanInput): Plan => {
  const rate = broadcastRate(input.providerRate);
  const startsAt = Math.max(input.now, input.requestedAt, input.busyUntil);
  const usedOnStartDay = input.daily && startOfDay(startsAt) === startOfDay(input.now) ? input.daily.usedToday : 0;
  const monthly = input.monthly && input.audience > Math.max(0, input.monthly.left) ? input.monthly : null;
  const base = {
    startsAt,
    rate,
    dailyCap: input.daily?.cap ?? null,
    usedOnStartDay,
    periodLeft: monthly ? Math.max(0, monthly.left) : null,
    renewsAt: monthly?.renewsAt ?? null,
  };
  // Time parked waiting for the renewal does not count toward the 24-day horizon: sending does.
  const parkedMs = monthly
    ? Math.max(
        0,
        monthly.renewsAt -
          (base.periodLeft! > 0 ? slotAt({ ...base, periodLeft: null }, base.periodLeft! - 1) : startsAt),
      )
    : 0;
  const perDay = input.daily ? Math.min(input.daily.cap, rate * 86_400) : rate * 86_400;
  const finishesAt = input.audience === 0 ? startsAt : slotAt(base, input.audience - 1);
  // Days of capacity the audience needs at a full day's rate (or quota), and the calendar span.
  const capacityDays = input.audience / perDay;
  if (
    !Number.isFinite(finishesAt) ||
    capacityDays > MAX_BROADCAST_DAYS ||
    (finishesAt - startsAt - parkedMs) / DAY_MS > MAX_BROADCAST_DAYS
  ) {
    throw new BroadcastTooLarge(input.audience, Math.ceil(capacityDays), perDay);
  }
  const days = input.audience === 0 ? 0 : Math.floor(finishesAt / DAY_MS) - Math.floor(startsAt / DAY_MS) + 1;
  // The capacity available now: what the start's UTC day still holds (quota and provider rate).
  const availableNow = dayCapacity(base, 0);
  let warning: PlanWarning | null = null;
  const requested = Math.max(input.now, input.requestedAt);
  if (input.busyUntil > requested && input.audience > 0) {
    warning = {
      type: 'queued_behind',
      days: Math.max(1, Math.ceil((finishesAt - input.now) / DAY_MS)),
      message: `Other broadcasts hold this region's broadcast capacity until ${iso(input.busyUntil)}; this one starts then and its last send is planned for ${iso(finishesAt)}.`,
    };
  } else if (monthly) {
    warning = {
      type: 'paced',
      days,
      message: `${input.audience} recipients exceed the ${Math.max(0, monthly.left)} emails left in this period's included volume (overage is off); the rest is parked until the period renews on ${iso(monthly.renewsAt)}, the last send on ${iso(finishesAt)}.`,
    };
  } else if (input.audience > availableNow) {
    warning = {
      type: 'paced',
      days,
      message:
        input.daily && input.audience > availableNow
          ? `${input.audience} recipients exceed what the daily quota (${input.daily.cap} a day) leaves today; the rest is parked and sent on the following UTC days, the last on ${iso(finishesAt)}.`
          : `${input.audience} recipients at ${rate} a second (the provider rate less the ${TRANSACTIONAL_RESERVE * 100}% kept for transactional mail) run past today into ${days} UTC days; the last send is planned for ${iso(finishesAt)}.`,
    };
  }
  return { ...base, audience: input.audience, finishesAt, days, warning };
};

/**
 * Until when a broadcast holds its region's broadcast capacity (its lane), so broadcasts sent
 * after it start behind it: to its last send while it sends without a break; to the last send
 * before the first parking when its team's daily quota or monthly volume parks the rest. A
 * parked broadcast sends a few bursts on later days and does not keep the whole region waiting
 * through the days between them (the pacer's per-second broadcast share still keeps every send
 * within the rate when bursts meet).
 */
export const regionBusyUntil = (p: Plan): number => {
  if (p.audience === 0) return p.startsAt;
  const today = dayCapacity(p, 0);
  const parkedByQuota = p.dailyCap !== null && p.audience > today && today < dayCapacity({ ...p, dailyCap: null }, 0);
  const parkedByVolume = p.periodLeft != null && p.audience > p.periodLeft;
  const firstRun = Math.min(parkedByQuota ? today : p.audience, parkedByVolume ? p.periodLeft! : p.audience);
  if (firstRun >= p.audience) return p.finishesAt;
  return firstRun === 0 ? p.startsAt : slotAt(p, firstRun - 1);
};

/** The schedule a broadcast stored at send (its `plan`), as `slotAt` reads it. */
export const storedSchedule = (p: {
  starts_at: number;
  rate: number;
  daily_cap: number | null;
  used_on_start_day: number;
  period_left?: number | null;
  renews_at?: number | null;
}): Schedule => ({
  startsAt: p.starts_at,
  rate: p.rate,
  dailyCap: p.daily_cap,
  usedOnStartDay: p.used_on_start_day,
  periodLeft: p.period_left ?? null,
  renewsAt: p.renews_at ?? null,
});
