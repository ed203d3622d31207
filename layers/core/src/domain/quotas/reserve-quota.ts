import type { Deps } from '../../runtime/deps.ts';
import type { Key } from '../../table/ops.ts';
import {
  addUncapped,
  addWithin,
  readShards,
  segmentEnds,
  sumOf,
  type CounterShards,
} from '../../table/bounded-counter.ts';
import { DAILY_COUNTER_RETENTION_SECONDS } from '../../limits.ts';
import { teamPageUrl, type Team } from '../teams/team.ts';
import { PLANS } from '../teams/plans.ts';
import { keys } from '../../table/keys.ts';
import { calendarOf } from '../usage/get-usage.ts';
import { rateLimited } from '../../errors/api-error.ts';
import { recordEvent, type EventType } from '../events/record-event.ts';

type Calendar = ReturnType<typeof calendarOf>;

/** quota.warning fires at 80 percent of the cap. */
const QUOTA_WARNING_SHARE = 0.8;

/**
 * The quota.* events a reservation crossed (spec §6 team events). A line is crossed by exactly
 * one reservation of a day or period: the counter's rebalance that counted the line's unit (its
 * shards' transaction is conditioned on the counts it read): once per UTC day or period without
 * a separate marker.
 */
const crossedLines = (before: number, after: number, lines: readonly [EventType, number][]): EventType[] =>
  lines.filter(([, line]) => before < line && after >= line).map(([type]) => type);

/** Daily plans pass up to 50% past the cap before parking (spec §6 quota.reached). */
const DAILY_PASS_FACTOR = 1.5;
/** Parked backlog allowed before refusing: 3 times the daily cap (spec §3). */
const PARKED_BACKLOG_FACTOR = 3;
/** Monthly plans with overage on stop hard at 5 times the included volume. */
const OVERAGE_HARD_STOP_FACTOR = 5;

/** How each of `n` accepted emails goes: out now, or parked until the daily rollover. */
export type Admission = 'send' | 'park';

/** The usage counter of a day or a month, its shard to write picked at random (the quota reads the shards' sum). */
const usageShards = (keyOf: (shard: number) => Key, expiresAt?: number): CounterShards => ({
  keyOf,
  shards: keys.usage.shards,
  shard: Math.floor(Math.random() * keys.usage.shards),
  ...(expiresAt !== undefined ? { expiresAt } : {}),
});
const dayShards = (team: Team, cal: Calendar) =>
  usageShards(
    (shard) => keys.usage.day(team.id, cal.day, shard),
    Math.ceil(cal.nextMidnight / 1000) + DAILY_COUNTER_RETENTION_SECONDS,
  );
const monthShards = (team: Team, cal: Calendar) => usageShards((shard) => keys.usage.month(team.id, cal.month, shard));

/**
 * The daily plan's stops: the lines its quota.* events fire at, where sends turn to parks, and
 * the limit (the backlog's end). Units in a segment ending at or under `passing` are sent.
 */
const dailyBounds = (cap: number) => {
  const passing = Math.floor(cap * DAILY_PASS_FACTOR);
  const max = passing + cap * PARKED_BACKLOG_FACTOR;
  return { passing, max, ends: segmentEnds([Math.ceil(cap * QUOTA_WARNING_SHARE), cap, passing, passing + 1], max) };
};

/** The monthly plan's stops: the quota.* lines and the limit (included volume, or the hard stop with overage). */
const monthlyBounds = (team: Team, included: number) => {
  const max = team.overageEnabled ? included * OVERAGE_HARD_STOP_FACTOR : included;
  return { max, ends: segmentEnds([Math.ceil(included * QUOTA_WARNING_SHARE), included], max) };
};

/** The quota.* events of a daily plan whose day counter went from `total - n` to `total`. */
const dailyLinesCrossed = async (deps: Deps, team: Team, cal: Calendar, total: number, n: number): Promise<void> => {
  const cap = PLANS[team.plan].emailsPerDay!;
  const passing = Math.floor(cap * DAILY_PASS_FACTOR);
  const data = {
    used: Math.min(total, passing),
    limit: cap,
    period: 'day',
    resets_at: new Date(cal.nextMidnight).toISOString(),
    dashboard_url: teamPageUrl(deps, team.id),
    ceiling: passing,
  };
  for (const type of crossedLines(total - n, total, [
    ['quota.warning', Math.ceil(cap * QUOTA_WARNING_SHARE)],
    ['quota.reached', cap],
    ['quota.paused', passing + 1],
  ])) {
    await recordEvent(deps, team.id, type, data);
  }
};

/** The quota.* events of a monthly plan whose period counter went from `total - n` to `total`. */
const monthlyLinesCrossed = async (deps: Deps, team: Team, cal: Calendar, total: number, n: number): Promise<void> => {
  const included = PLANS[team.plan].emailsPerMonth!;
  const data = {
    used: total,
    limit: included,
    period: 'month',
    resets_at: new Date(cal.monthEnd).toISOString(),
    dashboard_url: teamPageUrl(deps, team.id),
    overage: team.overageEnabled ? 'billed' : 'refused',
  };
  for (const type of crossedLines(total - n, total, [
    ['quota.warning', Math.ceil(included * QUOTA_WARNING_SHARE)],
    ['quota.reached', included],
  ])) {
    await recordEvent(deps, team.id, type, data);
  }
};

/** True where reserving only counts (self-hosted: no plan applies), so every email is admitted whatever the count says. */
export const quotaOnlyCounts = (deps: Deps): boolean => !deps.config.CLOUD;

/**
 * Counts `n` accepted emails against the team's quota (the usage counter's shards: one write but
 * at a segment's end, see table/bounded-counter.ts) and says how each goes. A batch is accepted or
 * refused whole. Self-hosted deployments only count (for /usage). The quota.* lines fire once,
 * from the one rebalance that counted the units crossing them.
 */
export const reserveQuota = async (deps: Deps, team: Team, n: number): Promise<Admission[]> => {
  const cal = calendarOf(deps.clock.now());
  const send = (): Admission[] => Array.from({ length: n }, () => 'send');
  if (quotaOnlyCounts(deps)) {
    await addUncapped(deps, dayShards(team, cal), n);
    return send();
  }
  const plan = PLANS[team.plan];
  if (plan.emailsPerDay !== null) {
    const cap = plan.emailsPerDay;
    const { passing, ends } = dailyBounds(cap);
    const counted = await addWithin(deps, dayShards(team, cal), n, ends);
    if (counted === undefined) {
      throw rateLimited(
        `Daily quota spent: the ${team.plan} plan sends ${cap} emails a day and parks at most ${cap * PARKED_BACKLOG_FACTOR} more for after midnight; ${n === 1 ? 'this email' : `these ${n} emails`} would go past that. Sends resume after ${new Date(cal.nextMidnight).toISOString()} (UTC midnight) or with a plan upgrade.`,
        (cal.nextMidnight - deps.clock.now()) / 1000,
        'daily_quota_exceeded',
      );
    }
    const { before, after } = counted;
    if (before === undefined || after === undefined)
      return Array.from({ length: n }, () => (counted.segmentEnd <= passing ? 'send' : 'park'));
    await dailyLinesCrossed(deps, team, cal, after, n);
    return Array.from({ length: n }, (_, i) => (before + i + 1 <= passing ? 'send' : 'park'));
  }
  const included = plan.emailsPerMonth!;
  const { max, ends } = monthlyBounds(team, included);
  const counted = await addWithin(deps, monthShards(team, cal), n, ends);
  if (counted === undefined) {
    const renewal = new Date(cal.monthEnd).toISOString().slice(0, 10);
    throw rateLimited(
      team.overageEnabled
        ? `Monthly hard stop reached: ${max} emails (5 times the included ${included}). The period renews on ${renewal}.`
        : `Monthly quota spent: the ${team.plan} plan includes ${included} emails and overage is off. The period renews on ${renewal}.`,
      (cal.monthEnd - deps.clock.now()) / 1000,
      'monthly_quota_exceeded',
    );
  }
  if (counted.after !== undefined) await monthlyLinesCrossed(deps, team, cal, counted.after, n);
  await addUncapped(deps, dayShards(team, cal), n);
  return send();
};

/**
 * Counts broadcast sends on the team's usage (today, and the month on monthly plans) without a
 * cap: the broadcast's plan already placed them within the daily quota. The quota.* lines they
 * cross fire as for API sends.
 */
export const countSends = async (deps: Deps, team: Team, n: number): Promise<void> => {
  if (n === 0) return;
  const cal = calendarOf(deps.clock.now());
  const plan = PLANS[team.plan];
  if (!deps.config.CLOUD) {
    await addUncapped(deps, dayShards(team, cal), n);
    return;
  }
  // A broadcast crossing a line of the quota tells the team as an API send would (spec §6 quota.*).
  if (plan.emailsPerMonth !== null) {
    await addUncapped(deps, dayShards(team, cal), n);
    const counted = await addWithin(
      deps,
      monthShards(team, cal),
      n,
      monthlyBounds(team, plan.emailsPerMonth).ends,
      true,
    );
    if (counted?.after !== undefined) await monthlyLinesCrossed(deps, team, cal, counted.after, n);
    return;
  }
  const counted = await addWithin(deps, dayShards(team, cal), n, dailyBounds(plan.emailsPerDay!).ends, true);
  if (counted?.after !== undefined) await dailyLinesCrossed(deps, team, cal, counted.after, n);
};

/** What a team has sent today (the usage day counter's shards summed). */
export const sentToday = async (deps: Deps, teamId: string): Promise<number> => {
  const cal = calendarOf(deps.clock.now());
  return sumOf(
    await readShards(
      deps,
      { keyOf: (shard) => keys.usage.day(teamId, cal.day, shard), shards: keys.usage.shards },
      true,
    ),
  );
};

/**
 * What a monthly plan's period still holds before API sends are refused (the included volume
 * with overage off, the hard stop with it on) and when the period renews: broadcast recipients
 * past it are parked until the renewal. Null on daily plans and self-hosted deployments.
 */
export const monthLeft = async (deps: Deps, team: Team): Promise<{ left: number; renewsAt: number } | null> => {
  const included = PLANS[team.plan].emailsPerMonth;
  if (!deps.config.CLOUD || included === null) return null;
  const cal = calendarOf(deps.clock.now());
  const { max } = monthlyBounds(team, included);
  const sent = sumOf(await readShards(deps, monthShards(team, cal), true));
  return { left: Math.max(0, max - sent), renewsAt: cal.monthEnd };
};
