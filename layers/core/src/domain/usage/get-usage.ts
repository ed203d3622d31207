import type { Deps } from '../../runtime/deps.ts';
import type { Team } from '../teams/team.ts';
import { PLANS } from '../teams/plans.ts';
import { keys } from '../../table/keys.ts';
import { batchGetItems } from '../../table/ops.ts';
import { sumOf } from '../../table/bounded-counter.ts';

/** Price of 1,000 emails past the included monthly volume, when overage is on. */
const OVERAGE_USD_PER_1K = 0.9;

/** The UTC day (yyyy-mm-dd) and month (yyyy-mm) of an instant, and their boundaries. */
export const calendarOf = (now: number) => {
  const d = new Date(now);
  const day = d.toISOString().slice(0, 10);
  const month = day.slice(0, 7);
  const nextMidnight = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
  const monthStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const monthEnd = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return { day, month, nextMidnight, monthStart, monthEnd };
};

/** The usage object of spec §2: plan, limits, today's and the period's counters. */
export const getUsage = async (deps: Deps, team: Team) => {
  const cal = calendarOf(deps.clock.now());
  // Every shard of today's counters, and of the month's where a monthly plan reports its period,
  // in one BatchGet; each figure is its shards' sum.
  const plan = PLANS[team.plan];
  const readsMonth = deps.config.CLOUD && plan.emailsPerMonth !== null;
  const shards = Array.from({ length: keys.usage.shards }, (_, shard) => shard);
  const dayKeys = shards.map((shard) => keys.usage.day(team.id, cal.day, shard));
  const monthKeys = readsMonth ? shards.map((shard) => keys.usage.month(team.id, cal.month, shard)) : [];
  const rows = await batchGetItems(deps, [...dayKeys, ...monthKeys], false);
  const dayPks = new Set(dayKeys.map((k) => k.pk));
  const dayRows = rows.filter((r) => dayPks.has(String(r.pk)));
  const monthRows = rows.filter((r) => !dayPks.has(String(r.pk)));
  const runs = sumOf(dayRows, 'automation_runs');
  const today = {
    emails_sent: sumOf(dayRows),
    automation_runs: runs,
    resets_at: new Date(cal.nextMidnight).toISOString(),
  };
  const base = { object: 'usage' as const, team: { id: team.id, name: team.name }, app_url: deps.config.APP_URL };
  if (!deps.config.CLOUD) return { ...base, cloud: false, plan: null, limits: null, today, period: null };
  const limits = {
    ...(plan.emailsPerDay !== null ? { emails_per_day: plan.emailsPerDay } : { emails_per_month: plan.emailsPerMonth }),
    domains: plan.domains,
    contacts: plan.contacts,
  };
  const period =
    plan.emailsPerMonth === null
      ? null
      : {
          emails_sent: sumOf(monthRows),
          included: plan.emailsPerMonth,
          overage_enabled: team.overageEnabled,
          overage_usd_per_1k: OVERAGE_USD_PER_1K,
          starts_at: new Date(cal.monthStart).toISOString(),
          ends_at: new Date(cal.monthEnd).toISOString(),
        };
  return { ...base, cloud: true, plan: team.plan, limits, today, period };
};
