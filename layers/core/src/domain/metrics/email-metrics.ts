import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { batchGetItems, queryAll, type Item } from '../../table/ops.ts';
import { validationError } from '../../errors/api-error.ts';
import { METRICS_HOURLY_MAX_DAYS, METRICS_RETENTION_DAYS } from '../../limits.ts';
import type { EmailItem } from '../emails/email.ts';
import { COUNTED, type Counted } from './count-metrics.ts';
import { hoursIn, isTimezone, periodOf, wallClock, type Granularity } from './periods.ts';

/** Every metric the API answers, in the reference's order. */
export const EMAIL_METRICS = [
  'received',
  'delivered',
  'complained',
  'suppressed',
  'bounced',
  'bounced_transient',
  'bounced_permanent',
  'bounced_undetermined',
  'opened',
  'clicked',
  'unsubscribed',
  'delivery_delayed',
  'failed',
  'sent',
  'unique_opened',
  'unique_clicked',
  'delivery_rate',
  'open_rate',
  'click_rate',
  'bounce_rate',
  'complaint_rate',
  'unsubscribe_rate',
] as const;
export type EmailMetric = (typeof EMAIL_METRICS)[number];
export const METRICS_DIMENSIONS = ['period', 'domain', 'email', 'broadcast'] as const;
export type MetricsDimension = (typeof METRICS_DIMENSIONS)[number];
export const GRANULARITIES = ['hourly', 'daily', 'weekly', 'monthly'] as const;

/** What a metrics request asks for (the parsed query). */
export interface MetricsQuery {
  /** ISO 8601 date (`2026-07-01`, midnight in `timezone`) or datetime with its offset. */
  readonly start_date?: string | undefined;
  readonly end_date?: string | undefined;
  readonly timezone: string;
  readonly granularity: Granularity;
  readonly metrics?: readonly EmailMetric[] | undefined;
  readonly dimensions?: readonly MetricsDimension[] | undefined;
  readonly domain_id?: readonly string[] | undefined;
  readonly email_id?: readonly string[] | undefined;
  readonly broadcast_id?: readonly string[] | undefined;
}

type Row = Partial<Record<EmailMetric, number>> & {
  period?: string;
  domain_id?: string;
  domain_name?: string;
  email_id?: string;
  broadcast_id?: string;
  broadcast_name?: string;
};

/** The answer of GET /emails/metrics (the SDK's GetEmailsMetricsResponseSuccess). */
export interface EmailMetrics {
  readonly object: 'metrics';
  readonly start_date: string;
  readonly end_date: string;
  readonly metrics: EmailMetric[];
  readonly dimensions: MetricsDimension[];
  readonly granularity: Granularity;
  readonly totals: Partial<Record<EmailMetric, number>>;
  readonly data?: Row[];
}

const DAY = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Counts of one hour for one team, domain, broadcast or email. */
interface Cell {
  readonly at: number;
  readonly domainId?: string;
  readonly broadcastId?: string;
  readonly emailId?: string;
  readonly counts: Partial<Record<Counted, number>>;
}

const dateBound = (value: string, tz: string, end: boolean): number => {
  const d = DATE.exec(value);
  if (!d) return Date.parse(value);
  // A date alone is midnight in the timezone; as end_date it takes in the whole day.
  return wallClock(tz).instant(Number(d[1]), Number(d[2]), Number(d[3]) + (end ? 1 : 0));
};

/** The range asked for, checked against the counters' reach: [start, end) in epoch ms. */
const rangeOf = (deps: Deps, q: MetricsQuery): { start: number; end: number } => {
  const now = deps.clock.now();
  const end = Math.min(now, q.end_date ? dateBound(q.end_date, q.timezone, true) : now);
  const start = q.start_date ? dateBound(q.start_date, q.timezone, false) : end - 6 * DAY;
  if (start > end)
    throw validationError(
      `\`start_date\` (${new Date(start).toISOString()}) is after \`end_date\` (${new Date(end).toISOString()}, future ends count as now): give a start on or before the end.`,
    );
  if (end - start > METRICS_RETENTION_DAYS * DAY)
    throw validationError(
      `\`start_date\`: the range covers ${Math.ceil((end - start) / DAY)} days; metrics reach at most ${METRICS_RETENTION_DAYS} days (the counters' retention). Narrow start_date and end_date.`,
    );
  if (q.granularity === 'hourly' && end - start > METRICS_HOURLY_MAX_DAYS * DAY)
    throw validationError(
      `\`granularity\`: hourly periods cover at most ${METRICS_HOURLY_MAX_DAYS} days and this range covers ${Math.ceil((end - start) / DAY)}. Use daily, weekly or monthly, or a shorter range.`,
    );
  return { start, end };
};

/** Refuses what the counters cannot answer, naming the parameter. */
const checkCombination = (q: MetricsQuery, dims: readonly MetricsDimension[]): void => {
  if (!isTimezone(q.timezone))
    throw validationError(
      `\`timezone\`: "${q.timezone}" is not an IANA timezone; use a name such as UTC, Europe/Paris or America/New_York.`,
    );
  const byEmail = dims.includes('email') || q.email_id !== undefined;
  const byBroadcast = dims.includes('broadcast') || q.broadcast_id !== undefined;
  const byDomain = dims.includes('domain') || q.domain_id !== undefined;
  if (byEmail && byBroadcast)
    throw validationError(
      '`dimensions`: the `email` dimension and `email_id` cannot be combined with the `broadcast` dimension or `broadcast_id`.',
    );
  if (byDomain && byBroadcast)
    throw validationError(
      '`dimensions`: the `domain` dimension and `domain_id` cannot be combined with the `broadcast` dimension or `broadcast_id` here (counts are kept per domain and per broadcast, not per pair).',
    );
  if (dims.includes('email') && !q.email_id)
    throw validationError(
      '`email_id`: the `email` dimension answers for the emails named in `email_id` (up to 100 ids); give their ids.',
    );
};

/** The hour items of [start, end): one query per UTC month touched and shard (the cells sum the shards). */
const hourItems = async (deps: Deps, teamId: string, start: number, end: number): Promise<Item[]> => {
  const hours = hoursIn(start, end);
  const months = new Map<string, [string, string]>();
  for (const h of hours) {
    const m = h.slice(0, 7);
    const span = months.get(m);
    months.set(m, span ? [span[0], h] : [h, h]);
  }
  const shards = Array.from({ length: keys.metrics.monthShards }, (_, shard) => shard);
  const pages = await Promise.all(
    [...months].flatMap(([month, [from, to]]) =>
      shards.map((shard) =>
        queryAll(deps, { pk: keys.metrics.month(teamId, month, shard), between: keys.metrics.hoursBetween(from, to) }),
      ),
    ),
  );
  return pages.flat();
};

/** Splits the hour items into the cells asked for: the team's (its domains' sum), each domain's or each broadcast's. */
const counterCells = (items: readonly Item[], by: 'team' | 'domain' | 'broadcast'): Cell[] => {
  const counted = new Set<string>(COUNTED);
  const cells = new Map<string, { at: number; id?: string; counts: Partial<Record<Counted, number>> }>();
  for (const item of items) {
    const of = keys.metrics.hourOf(String(item.sk));
    if (!of || of.owner.kind !== (by === 'broadcast' ? 'broadcast' : 'domain')) continue;
    const { hour } = of;
    const id = by === 'team' ? undefined : (of.owner.id ?? undefined);
    if (by === 'domain' && !id) continue;
    const at = Date.parse(`${hour}:00:00Z`);
    const key = `${at}#${id ?? ''}`;
    const cell = cells.get(key) ?? { at, ...(id ? { id } : {}), counts: {} };
    for (const [attr, value] of Object.entries(item))
      if (typeof value === 'number' && counted.has(attr))
        cell.counts[attr as Counted] = (cell.counts[attr as Counted] ?? 0) + value;
    cells.set(key, cell);
  }
  return [...cells.values()].map((c) => ({
    at: c.at,
    counts: c.counts,
    ...(c.id ? (by === 'domain' ? { domainId: c.id } : { broadcastId: c.id }) : {}),
  }));
};

/** What an email's own rows say of it: its state, its person's open, and its clicks. */
const RANK_SENT = new Set(['sent', 'delivered', 'delivery_delayed', 'bounced', 'complained']);
const emailCells = async (
  deps: Deps,
  teamId: string,
  ids: readonly string[],
  start: number,
  end: number,
): Promise<Cell[]> => {
  const emails = (await batchGetItems(
    deps,
    ids.map((id) => keys.email.item(teamId, id)),
    false,
  )) as (EmailItem & { human_open?: boolean })[];
  const inRange = emails.filter((e) => {
    const at = Date.parse(e.sent_at ?? e.created_at);
    return at >= Math.floor(start / 3_600_000) * 3_600_000 && at < end;
  });
  // Each email's clicks are one query of its own partition, read side by side.
  return Promise.all(
    inRange.map(async (e): Promise<Cell> => {
      const at = Date.parse(e.sent_at ?? e.created_at);
      const clicks = await queryAll(deps, {
        pk: keys.email.item(teamId, e.id).pk,
        prefix: keys.email.clickPrefix,
        filter: { attr: 'announced', eq: true },
        project: ['human'],
      });
      const clicked = clicks.filter((c) => c.human === true).length;
      const s = e.status;
      return {
        at,
        emailId: e.id,
        domainId: e.domain_id,
        counts: {
          sent: RANK_SENT.has(s) ? 1 : 0,
          delivered: s === 'delivered' || s === 'complained' ? 1 : 0,
          delivery_delayed: s === 'delivery_delayed' ? 1 : 0,
          bounced_permanent: s === 'bounced' ? 1 : 0,
          complained: s === 'complained' ? 1 : 0,
          failed: s === 'failed' ? 1 : 0,
          suppressed: s === 'suppressed' ? 1 : 0,
          opened: e.human_open ? 1 : 0,
          unique_opened: e.human_open ? 1 : 0,
          clicked,
          unique_clicked: clicked > 0 ? 1 : 0,
        },
      };
    }),
  );
};

const ratio = (part: number, whole: number) => (whole ? Math.round((part / whole) * 10_000) / 100 : 0);

/** The metrics asked for from summed counts: `bounced` is every kind of bounce; rates are percentages (two decimals). */
const metricsOf = (c: Partial<Record<Counted, number>>, wanted: readonly EmailMetric[]) => {
  const n = (m: Counted) => c[m] ?? 0;
  const bounced = n('bounced_permanent') + n('bounced_transient') + n('bounced_undetermined');
  const all: Record<EmailMetric, number> = {
    received: n('received'),
    delivered: n('delivered'),
    complained: n('complained'),
    suppressed: n('suppressed'),
    bounced,
    bounced_transient: n('bounced_transient'),
    bounced_permanent: n('bounced_permanent'),
    bounced_undetermined: n('bounced_undetermined'),
    opened: n('opened'),
    clicked: n('clicked'),
    unsubscribed: n('unsubscribed'),
    delivery_delayed: n('delivery_delayed'),
    failed: n('failed'),
    sent: n('sent'),
    unique_opened: n('unique_opened'),
    unique_clicked: n('unique_clicked'),
    delivery_rate: ratio(n('delivered'), n('sent')),
    open_rate: ratio(n('unique_opened'), n('delivered')),
    click_rate: ratio(n('unique_clicked'), n('delivered')),
    bounce_rate: ratio(bounced, n('sent')),
    complaint_rate: ratio(n('complained'), n('delivered')),
    unsubscribe_rate: ratio(n('unsubscribed'), n('delivered')),
  };
  return Object.fromEntries(wanted.map((m) => [m, all[m]])) as Partial<Record<EmailMetric, number>>;
};

const addInto = (into: Partial<Record<Counted, number>>, from: Partial<Record<Counted, number>>) => {
  for (const [m, v] of Object.entries(from) as [Counted, number][]) into[m] = (into[m] ?? 0) + v;
};

/** Names of the domains and broadcasts in the rows (a deleted one keeps its id, without a name). */
const namesOf = async (deps: Deps, teamId: string, kind: 'domain' | 'broadcast', ids: readonly string[]) => {
  if (ids.length === 0) return new Map<string, string>();
  const items = await batchGetItems(
    deps,
    ids.map((id) => (kind === 'domain' ? keys.domain.item(teamId, id) : keys.broadcast.item(teamId, id))),
    false,
  );
  return new Map(items.map((i) => [String(i.id), String(i.name ?? '')]));
};

/**
 * GET /emails/metrics: the team's email counts over a range, summed from the hourly counters kept
 * as events arrive (no email is read), or, for `email_id`, from those emails' own rows. Broken down
 * by period in the timezone, by domain, by broadcast or by email as asked.
 */
export const emailMetrics = async (deps: Deps, teamId: string, q: MetricsQuery): Promise<EmailMetrics> => {
  const dims = [...new Set(q.dimensions ?? [])];
  const wanted = q.metrics?.length ? [...new Set(q.metrics)] : [...EMAIL_METRICS];
  checkCombination(q, dims);
  const { start, end } = rangeOf(deps, q);
  const by =
    dims.includes('domain') || q.domain_id
      ? 'domain'
      : dims.includes('broadcast') || q.broadcast_id
        ? 'broadcast'
        : 'team';
  let cells = q.email_id
    ? await emailCells(deps, teamId, [...new Set(q.email_id)], start, end)
    : counterCells(await hourItems(deps, teamId, start, end), by);
  const domains = q.domain_id && new Set(q.domain_id);
  const broadcasts = q.broadcast_id && new Set(q.broadcast_id);
  if (domains) cells = cells.filter((c) => c.domainId && domains.has(c.domainId));
  if (broadcasts) cells = cells.filter((c) => c.broadcastId && broadcasts.has(c.broadcastId));

  const period = periodOf(q.timezone, q.granularity);
  const totals: Partial<Record<Counted, number>> = {};
  const groups = new Map<string, { row: Row; counts: Partial<Record<Counted, number>> }>();
  const rowOf = (c: Pick<Cell, 'domainId' | 'broadcastId' | 'emailId'>, at: number): Row => ({
    ...(dims.includes('period') ? { period: period(at) } : {}),
    ...(dims.includes('domain') && c.domainId ? { domain_id: c.domainId } : {}),
    ...(dims.includes('email') && c.emailId ? { email_id: c.emailId } : {}),
    ...(dims.includes('broadcast') && c.broadcastId ? { broadcast_id: c.broadcastId } : {}),
  });
  // A period breakdown alone shows every period of the range, the quiet ones as zeros (a chart's axis).
  if (dims.length === 1 && dims[0] === 'period')
    for (const h of hoursIn(start, end)) {
      const row = rowOf({}, Date.parse(`${h}:00:00Z`));
      if (!groups.has(JSON.stringify(row))) groups.set(JSON.stringify(row), { row, counts: {} });
    }
  for (const c of cells) {
    addInto(totals, c.counts);
    if (dims.length === 0) continue;
    const row = rowOf(c, c.at);
    const key = JSON.stringify(row);
    const group = groups.get(key) ?? { row, counts: {} };
    addInto(group.counts, c.counts);
    groups.set(key, group);
  }
  const rows = [...groups.values()];
  const domainNames = dims.includes('domain')
    ? await namesOf(deps, teamId, 'domain', [...new Set(rows.flatMap((g) => g.row.domain_id ?? []))])
    : undefined;
  const broadcastNames = dims.includes('broadcast')
    ? await namesOf(deps, teamId, 'broadcast', [...new Set(rows.flatMap((g) => g.row.broadcast_id ?? []))])
    : undefined;
  const data = rows
    .map((g) => {
      const domainName = g.row.domain_id && domainNames?.get(g.row.domain_id);
      const broadcastName = g.row.broadcast_id && broadcastNames?.get(g.row.broadcast_id);
      return {
        ...g.row,
        ...(domainName ? { domain_name: domainName } : {}),
        ...(broadcastName !== undefined && g.row.broadcast_id ? { broadcast_name: broadcastName } : {}),
        ...metricsOf(g.counts, wanted),
      };
    })
    .sort((a, b) =>
      [a.period, a.domain_id, a.broadcast_id, a.email_id]
        .join('\u0000')
        .localeCompare([b.period, b.domain_id, b.broadcast_id, b.email_id].join('\u0000')),
    );
  return {
    object: 'metrics',
    start_date: new Date(start).toISOString(),
    end_date: new Date(end).toISOString(),
    metrics: wanted,
    dimensions: dims,
    granularity: q.granularity,
    totals: metricsOf(totals, wanted),
    ...(dims.length ? { data } : {}),
  };
};
