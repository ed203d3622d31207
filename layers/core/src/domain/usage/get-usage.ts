import type { Deps } from '../../runtime/deps.ts';
import type { Team } from '../teams/team.ts';
import { PLANS } from '../teams/plans.ts';
import { keys } from '../../table/keys.ts';
import { batchGetItems } from '../../table/ops.ts';

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
  const dayKey = keys.usage.day(team.id, cal.day);
  const monthKey = keys.usage.month(team.id, cal.month);
  const rows = await batchGetItems(deps, [dayKey, monthKey], false);
  const sent = (k: { pk: string }) => Number(rows.find((r) => r.pk === k.pk)?.emails_sent ?? 0);
  const runs = Number(rows.find((r) => r.pk === dayKey.pk)?.automation_runs ?? 0);
  const today = {
    emails_sent: sent(dayKey),
    automation_runs: runs,
    resets_at: new Date(cal.nextMidnight).toISOString(),
  };
  const base = { object: 'usage' as const, team: { id: team.id, name: team.name }, app_url: deps.config.APP_URL };
  if (!deps.config.CLOUD) return { ...base, cloud: false, plan: null, limits: null, today, period: null };
  const plan = PLANS[team.plan];
  const limits = {
    ...(plan.emailsPerDay !== null ? { emails_per_day: plan.emailsPerDay } : { emails_per_month: plan.emailsPerMonth }),
    domains: plan.domains,
    contacts: plan.contacts,
  };
  const period =
    plan.emailsPerMonth === null
      ? null
      : {
          emails_sent: sent(monthKey),
          included: plan.emailsPerMonth,
          overage_enabled: team.overageEnabled,
          overage_usd_per_1k: OVERAGE_USD_PER_1K,
          starts_at: new Date(cal.monthStart).toISOString(),
          ends_at: new Date(cal.monthEnd).toISOString(),
        };
  return { ...base, cloud: true, plan: team.plan, limits, today, period };
};
