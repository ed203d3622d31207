import { BatchGetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { Deps } from '../../runtime/deps.ts';
import type { Team } from '../teams/team.ts';
import { keys } from '../../table/keys.ts';
import { ApiError } from '../../errors/api-error.ts';
import { recordEvent } from '../events/record-event.ts';

/** The window the rates are measured over, and the least volume that makes a rate meaningful. */
export const WINDOW_DAYS = 7;
export const MIN_SENT = 100;
/** Risk and pause lines (the provider's own review thresholds). */
export const LINES = {
  bounce_rate: { warning: 0.05, pause: 0.1 },
  complaint_rate: { warning: 0.001, pause: 0.005 },
} as const;

type Metric = keyof typeof LINES;
const DAY = 86_400_000;

/** Counts one outcome of the team's mail in today's item (sent, bounced or complained). */
export const countOutcome = async (deps: Deps, teamId: string, outcome: 'sent' | 'bounced' | 'complained'): Promise<void> => {
  const now = deps.clock.now();
  await deps.db.send(new UpdateCommand({
    TableName: deps.table,
    Key: keys.deliverability.day(teamId, new Date(now).toISOString().slice(0, 10)),
    UpdateExpression: 'ADD #o :one SET #ttl = :ttl',
    ExpressionAttributeNames: { '#o': outcome, '#ttl': 'ttl' },
    ExpressionAttributeValues: { ':one': 1, ':ttl': Math.ceil(now / 1000) + 40 * 86400 },
  }));
};

/** The team's bounce and complaint rates over the window. */
export const windowRates = async (deps: Deps, teamId: string) => {
  const now = deps.clock.now();
  const days = Array.from({ length: WINDOW_DAYS }, (_, i) => new Date(now - i * DAY).toISOString().slice(0, 10));
  const out = await deps.db.send(new BatchGetCommand({ RequestItems: { [deps.table]: { Keys: days.map((d) => keys.deliverability.day(teamId, d)) } } }));
  const rows = out.Responses?.[deps.table] ?? [];
  const sum = (f: string) => rows.reduce((n, r) => n + Number(r[f] ?? 0), 0);
  const sent = sum('sent');
  return { sent, bounce_rate: sent ? sum('bounced') / sent : 0, complaint_rate: sent ? sum('complained') / sent : 0 };
};

const over = (rates: Awaited<ReturnType<typeof windowRates>>, line: 'warning' | 'pause'): Metric | undefined =>
  rates.sent < MIN_SENT ? undefined : (Object.keys(LINES) as Metric[]).find((m) => rates[m] >= LINES[m][line]);

const episode = (metric: Metric, rate: number) => ({ metric, rate: Number(rate.toFixed(4)), limit: LINES[metric].pause, window_days: WINDOW_DAYS });

/**
 * After a bounce or complaint: past the pause line the team's sends are paused (once per episode,
 * with deliverability.paused); past the risk line, deliverability.warning once per episode.
 */
export const reviewDeliverability = async (deps: Deps, teamId: string): Promise<void> => {
  const rates = await windowRates(deps, teamId);
  const dashboard = `${deps.config.APP_URL}/deliverability`;
  const paused = over(rates, 'pause');
  if (paused) {
    const data = episode(paused, rates[paused]);
    try {
      await deps.db.send(new UpdateCommand({
        TableName: deps.table, Key: keys.team.item(teamId),
        UpdateExpression: 'SET sending_paused = :p', ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(sending_paused) OR sending_paused = :null)',
        ExpressionAttributeValues: { ':p': data, ':null': null },
      }));
      await recordEvent(deps, teamId, 'deliverability.paused', { ...data, dashboard_url: dashboard });
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
    return;
  }
  const warned = over(rates, 'warning');
  if (!warned) return;
  try {
    await deps.db.send(new UpdateCommand({
      TableName: deps.table, Key: keys.team.item(teamId),
      UpdateExpression: 'SET deliverability_warned = :m', ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(deliverability_warned) OR deliverability_warned <> :m)',
      ExpressionAttributeValues: { ':m': warned },
    }));
    await recordEvent(deps, teamId, 'deliverability.warning', { ...episode(warned, rates[warned]), limit: LINES[warned].warning, dashboard_url: dashboard });
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
};

/**
 * Refuses a send while the team's sending is paused (403 sending_paused, naming metric, rate,
 * window and limit); a pause lifts once the window's rate is back under the line.
 */
export const assertSendingAllowed = async (deps: Deps, team: Team): Promise<void> => {
  const p = team.sendingPaused;
  if (!p) return;
  const rates = await windowRates(deps, team.id);
  if (!over(rates, 'pause')) {
    await deps.db.send(new UpdateCommand({ TableName: deps.table, Key: keys.team.item(team.id), UpdateExpression: 'REMOVE sending_paused, deliverability_warned' }));
    return;
  }
  throw new ApiError('sending_paused', `Sending is paused: the team's ${p.metric.replace('_', ' ')} is ${(p.rate * 100).toFixed(2)}% over the last ${p.window_days} days, above the ${(p.limit * 100).toFixed(2)}% limit. Clean the list (bounced and complaining addresses are suppressed) and sending resumes when the rate falls under the limit.`);
};
