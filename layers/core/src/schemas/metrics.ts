import * as v from 'valibot';
import { Id, Timestamp } from './common.ts';
import {
  EMAIL_METRICS,
  GRANULARITIES,
  METRICS_DIMENSIONS,
  type EmailMetric,
  type MetricsDimension,
} from '../domain/metrics/email-metrics.ts';
import { METRICS_MAX_FILTER_IDS } from '../limits.ts';

const DATE_OR_DATETIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/;

const DateBound = v.pipe(
  v.string(),
  v.check(
    (s) => DATE_OR_DATETIME.test(s) && !Number.isNaN(Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s)),
    'must be an ISO 8601 date (2026-07-01, midnight in `timezone`) or a datetime with its offset (2026-07-01T09:30:00Z).',
  ),
);

/** A comma-separated list (the SDKs join arrays with commas; a repeated parameter arrives joined the same way). */
const commaList = <const T extends readonly string[]>(allowed: T, what: string) =>
  v.pipe(
    v.string(),
    v.transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    ),
    v.array(v.picklist(allowed, `must be a comma-separated list of ${what}: ${allowed.join(', ')}.`)),
  );

const idList = (what: string) =>
  v.pipe(
    v.string(),
    v.transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    ),
    v.array(v.pipe(v.string(), v.uuid(`must be a comma-separated list of ${what} ids.`))),
    v.maxLength(METRICS_MAX_FILTER_IDS, `takes at most ${METRICS_MAX_FILTER_IDS} ${what} ids.`),
  );

/** GET /emails/metrics: the query (lists comma-separated, as the SDKs send them). */
export const MetricsQuery = v.object({
  start_date: v.optional(DateBound),
  end_date: v.optional(DateBound),
  timezone: v.optional(v.pipe(v.string(), v.maxLength(64, 'must be an IANA timezone name.')), 'UTC'),
  granularity: v.optional(v.picklist(GRANULARITIES, `must be one of ${GRANULARITIES.join(', ')}.`), 'daily'),
  metrics: v.optional(commaList(EMAIL_METRICS, 'metrics') as v.GenericSchema<string, EmailMetric[]>),
  dimensions: v.optional(commaList(METRICS_DIMENSIONS, 'dimensions') as v.GenericSchema<string, MetricsDimension[]>),
  domain_id: v.optional(idList('domain')),
  email_id: v.optional(idList('email')),
  broadcast_id: v.optional(idList('broadcast')),
});

const Counts = v.record(v.string(), v.number());

/** One breakdown row: the dimensions asked for, then the metrics. */
export const EmailMetricsRow = v.objectWithRest(
  {
    period: v.optional(Timestamp),
    domain_id: v.optional(Id),
    domain_name: v.optional(v.string()),
    email_id: v.optional(Id),
    broadcast_id: v.optional(Id),
    broadcast_name: v.optional(v.string()),
  },
  v.number(),
);

/** GET /emails/metrics: totals over the range and, with dimensions, one row per combination. */
export const EmailMetricsObject = v.object({
  object: v.literal('metrics'),
  start_date: Timestamp,
  end_date: Timestamp,
  metrics: v.array(v.picklist(EMAIL_METRICS)),
  dimensions: v.array(v.picklist(METRICS_DIMENSIONS)),
  granularity: v.picklist(GRANULARITIES),
  totals: Counts,
  data: v.optional(v.array(EmailMetricsRow)),
});
