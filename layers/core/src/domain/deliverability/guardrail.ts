import type { Deps } from '../../runtime/deps.ts';
import { teamPageUrl, type Team } from '../teams/team.ts';
import { keys, shardOf } from '../../table/keys.ts';
import { batchGetItems, updateItem, type Change, type Key } from '../../table/ops.ts';
import { DAILY_COUNTER_RETENTION_SECONDS } from '../../limits.ts';
import { ApiError } from '../../errors/api-error.ts';
import { recordEvent } from '../events/record-event.ts';
import { TENANT_PAUSE_METRIC } from './tenants.ts';
import { pauseTeam } from './pause-team.ts';

/** The window the rates are measured over. */
export const WINDOW_DAYS = 7;

type Metric = 'bounce_rate' | 'complaint_rate';
type Lines = Readonly<Record<Metric, { readonly warning: number; readonly pause: number }>>;

/**
 * The risk (warning) and pause lines, from the deployment's settings: by default below SES's own
 * review lines (see DEFAULTS), so a team is paused before SES would review the account all teams
 * send from.
 */
export const deliverabilityLines = (config: Deps['config']): Lines => ({
  bounce_rate: { warning: config.BOUNCE_RATE_WARNING, pause: config.BOUNCE_RATE_PAUSE },
  complaint_rate: { warning: config.COMPLAINT_RATE_WARNING, pause: config.COMPLAINT_RATE_PAUSE },
});
/** What the guardrail counts of a team's mail. */
type Outcome = 'sent' | 'bounced' | 'complained';
const DAY = 86_400_000;

/** A day item of one shard: a team's or a region's. */
type DayKey = (day: string, shard: number) => Key;

/**
 * The write that counts outcomes of one email of the team (sent, bounced or complained) in today's
 * item of the email's shard, for the caller to put in the transaction of the state change it
 * belongs to: a retried change that already happened counts nothing.
 */
export const outcomeCount = (
  deps: Deps,
  teamId: string,
  emailId: string,
  ...outcomes: Outcome[]
): { update: Key; change: Change } =>
  dayCount(deps, (day, shard) => keys.deliverability.day(teamId, day, shard), emailId, outcomes);

/** The same write for the platform's counts in the email's delivery region (every team's mail sent from it). */
export const regionOutcomeCount = (
  deps: Deps,
  region: string,
  emailId: string,
  ...outcomes: Outcome[]
): { update: Key; change: Change } =>
  dayCount(deps, (day, shard) => keys.deliverability.regionDay(region, day, shard), emailId, outcomes);

const dayCount = (
  deps: Deps,
  keyOf: DayKey,
  emailId: string,
  outcomes: readonly Outcome[],
): { update: Key; change: Change } => {
  const now = deps.clock.now();
  return {
    update: keyOf(new Date(now).toISOString().slice(0, 10), shardOf(emailId, keys.deliverability.shards)),
    change: {
      add: Object.fromEntries(outcomes.map((o) => [o, 1])),
      expiresAt: Math.ceil(now / 1000) + DAILY_COUNTER_RETENTION_SECONDS,
    },
  };
};

/**
 * Counts an outcome of one email on its own, for a caller that counts only after the conditional
 * state change it belongs to succeeded (once per email; the send worker's hot path, kept out of
 * transactions on the shared day items).
 */
export const countOutcome = async (
  deps: Deps,
  teamId: string,
  emailId: string,
  outcome: Outcome,
  region?: string,
): Promise<void> => {
  const counts = [
    outcomeCount(deps, teamId, emailId, outcome),
    ...(region ? [regionOutcomeCount(deps, region, emailId, outcome)] : []),
  ];
  await Promise.all(counts.map((count) => updateItem(deps, count.update, count.change)));
};

/** The counts of the days `days` summed over their shards (`rows`: the day items read, any order). */
export const sumDays = (rows: readonly Record<string, unknown>[]): Record<Outcome, number> => {
  const sum = (f: Outcome) => rows.reduce((n, r) => n + Number(r[f] ?? 0), 0);
  return { sent: sum('sent'), bounced: sum('bounced'), complained: sum('complained') };
};

/** The counts of one day of a team, every shard summed. */
export const teamDayCounts = async (deps: Deps, teamId: string, day: string): Promise<Record<Outcome, number>> =>
  sumDays(
    await batchGetItems(
      deps,
      dayKeys([day], (d, s) => keys.deliverability.day(teamId, d, s)),
      false,
    ),
  );

/** The counts of one day in a delivery region, every shard summed. */
export const regionDayCounts = async (deps: Deps, region: string, day: string): Promise<Record<Outcome, number>> =>
  sumDays(
    await batchGetItems(
      deps,
      dayKeys([day], (d, s) => keys.deliverability.regionDay(region, d, s)),
      false,
    ),
  );

/** The keys of every shard of the days. */
const dayKeys = (days: readonly string[], keyOf: DayKey): Key[] =>
  days.flatMap((day) => Array.from({ length: keys.deliverability.shards }, (_, shard) => keyOf(day, shard)));

/** Bounce and complaint rates over the window, from the day items `keyOf` names (every shard of each day). */
const ratesOver = async (deps: Deps, keyOf: DayKey) => {
  const now = deps.clock.now();
  const days = Array.from({ length: WINDOW_DAYS }, (_, i) => new Date(now - i * DAY).toISOString().slice(0, 10));
  const { sent, bounced, complained } = sumDays(await batchGetItems(deps, dayKeys(days, keyOf), false));
  return { sent, bounce_rate: sent ? bounced / sent : 0, complaint_rate: sent ? complained / sent : 0 };
};

/** The team's bounce and complaint rates over the window. */
export const windowRates = (deps: Deps, teamId: string) =>
  ratesOver(deps, (day, shard) => keys.deliverability.day(teamId, day, shard));

/** The platform's bounce and complaint rates in a delivery region over the window (every team's mail). */
export const regionRates = (deps: Deps, region: string) =>
  ratesOver(deps, (day, shard) => keys.deliverability.regionDay(region, day, shard));

/**
 * True once a delivery region's platform rates are back under the risk lines (or too little was
 * sent there to tell): what a region pause of broadcasts waits for.
 */
export const regionRecovered = async (deps: Deps, region: string): Promise<boolean> =>
  !over(deps, await regionRates(deps, region), 'warning');

/**
 * The metric over the line, if any. Under DELIVERABILITY_MIN_SENT emails in the window no rate
 * counts: one bounce of three emails pauses nobody.
 */
const over = (
  deps: Deps,
  rates: Awaited<ReturnType<typeof windowRates>>,
  line: 'warning' | 'pause',
): Metric | undefined => {
  if (rates.sent < deps.config.DELIVERABILITY_MIN_SENT) return undefined;
  const lines = deliverabilityLines(deps.config);
  return (Object.keys(lines) as Metric[]).find((m) => rates[m] >= lines[m][line]);
};

const episode = (deps: Deps, metric: Metric, rate: number) => ({
  metric,
  rate: Number(rate.toFixed(4)),
  limit: deliverabilityLines(deps.config)[metric].pause,
  window_days: WINDOW_DAYS,
});

/**
 * After a bounce or complaint: past the pause line the team's sends are paused (once per episode,
 * with deliverability.paused); past the risk line, deliverability.warning once per episode.
 */
export const reviewDeliverability = async (deps: Deps, teamId: string): Promise<void> => {
  const rates = await windowRates(deps, teamId);
  const dashboard = teamPageUrl(deps, teamId, 'deliverability');
  const paused = over(deps, rates, 'pause');
  if (paused) {
    await pauseTeam(deps, teamId, episode(deps, paused, rates[paused]));
    return;
  }
  const warned = over(deps, rates, 'warning');
  if (!warned) return;
  const newly = await updateItem(
    deps,
    keys.team.item(teamId),
    { set: { deliverability_warned: warned } },
    {
      and: [
        { exists: true },
        {
          or: [
            { attr: 'deliverability_warned', absent: true },
            { attr: 'deliverability_warned', ne: warned },
          ],
        },
      ],
    },
  );
  if (newly)
    await recordEvent(deps, teamId, 'deliverability.warning', {
      ...episode(deps, warned, rates[warned]),
      limit: deliverabilityLines(deps.config)[warned].warning,
      dashboard_url: dashboard,
    });
};

/**
 * Refuses a send while the team's sending is paused (403 sending_paused, naming metric, rate,
 * window and limit); a pause lifts once the window's rate is back under the line.
 */
export const assertSendingAllowed = async (deps: Deps, team: Team): Promise<void> => {
  const p = team.sendingPaused;
  if (!p) return;
  if (p.metric === TENANT_PAUSE_METRIC) {
    // SES paused the team's own tenant: the pause lasts until SES takes the team's mail again (the
    // email it refused is tried every minute; its send lifts the pause). The account sends on.
    throw new ApiError(
      'sending_paused',
      `Sending is paused: SES paused this team's own sending (tenant ${p.tenant} in ${p.region}) on the reputation of the team's mail (its bounce and complaint rates, or other findings SES reports). The other teams send on. Clean the list (bounced and complaining addresses are suppressed) and ask the operator to request SES's review; sending resumes when SES reinstates the tenant.`,
    );
  }
  const rates = await windowRates(deps, team.id);
  if (!over(deps, rates, 'pause')) {
    await updateItem(deps, keys.team.item(team.id), { remove: ['sending_paused', 'deliverability_warned'] });
    return;
  }
  throw new ApiError(
    'sending_paused',
    `Sending is paused: the team's ${p.metric.replace('_', ' ')} is ${(p.rate * 100).toFixed(2)}% over the last ${p.window_days} days, above the ${(p.limit * 100).toFixed(2)}% limit. Clean the list (bounced and complaining addresses are suppressed) and sending resumes when the rate falls under the limit.`,
  );
};
