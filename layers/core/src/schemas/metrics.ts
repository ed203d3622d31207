import * as v from 'valibot';
import { Id, Timestamp, commaSeparated } from './common.ts';
import {
  EMAIL_METRICS,
  GRANULARITIES,
  METRICS_DIMENSIONS,
  type EmailMetric,
  type MetricsDimension,
} from '../domain/metrics/email-metrics.ts';
import { METRICS_HOURLY_MAX_DAYS, METRICS_MAX_FILTER_IDS } from '../limits.ts';

const DATE_OR_DATETIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/;

const DateBound = v.pipe(
  v.string(),
  v.check(
    (s) => DATE_OR_DATETIME.test(s) && !Number.isNaN(Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s)),
    'must be an ISO 8601 date (2026-07-01, midnight in `timezone`) or a datetime with its offset (2026-07-01T09:30:00Z).',
  ),
);

/** A comma-separated list (the SDKs join arrays with commas; a repeated parameter arrives joined the same way). */
const commaList = <const T extends readonly string[]>(allowed: T, what: string, description: string) =>
  v.pipe(
    v.string(),
    v.description(description),
    commaSeparated,
    v.array(v.picklist(allowed, `must be a comma-separated list of ${what}: ${allowed.join(', ')}.`)),
  );

const idList = (what: string, description: string) =>
  v.pipe(
    v.string(),
    v.description(description),
    commaSeparated,
    v.array(v.pipe(v.string(), v.uuid(`must be a comma-separated list of ${what} ids.`))),
    v.maxLength(METRICS_MAX_FILTER_IDS, `takes at most ${METRICS_MAX_FILTER_IDS} ${what} ids.`),
  );

/** GET /emails/metrics: the query (lists comma-separated, as the SDKs send them). */
export const MetricsQuery = v.object({
  start_date: v.optional(
    v.pipe(
      DateBound,
      v.description(
        'The start of the range: an ISO 8601 date (midnight in `timezone`) or a datetime with its offset. Defaults to 6 days before `end_date`.',
      ),
    ),
  ),
  end_date: v.optional(
    v.pipe(
      DateBound,
      v.description(
        'The end of the range: an ISO 8601 date (that whole day in `timezone`) or a datetime with its offset. Defaults to now; a later end counts as now.',
      ),
    ),
  ),
  timezone: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(64, 'must be an IANA timezone name.'),
      v.description('The IANA timezone (`Europe/Paris`) the periods are bucketed in.'),
    ),
    'UTC',
  ),
  granularity: v.optional(
    v.pipe(
      v.picklist(GRANULARITIES, `must be one of ${GRANULARITIES.join(', ')}.`),
      v.description(
        `The period's size when \`period\` is a dimension; hourly covers at most ${METRICS_HOURLY_MAX_DAYS} days.`,
      ),
    ),
    'daily',
  ),
  metrics: v.optional(
    commaList(
      EMAIL_METRICS,
      'metrics',
      `Comma-separated metrics to answer (default all): ${EMAIL_METRICS.join(', ')}.`,
    ) as v.GenericSchema<string, EmailMetric[]>,
  ),
  dimensions: v.optional(
    commaList(
      METRICS_DIMENSIONS,
      'dimensions',
      'Comma-separated breakdowns: period, domain, email (needs email_id), broadcast. `email` and `email_id` exclude `broadcast` and `broadcast_id`, as `domain` and `domain_id` do. Default none: totals only.',
    ) as v.GenericSchema<string, MetricsDimension[]>,
  ),
  domain_id: v.optional(idList('domain', `Comma-separated sending domain ids (at most ${METRICS_MAX_FILTER_IDS}).`)),
  email_id: v.optional(
    idList('email', `Comma-separated email ids (at most ${METRICS_MAX_FILTER_IDS}), counted from their own rows.`),
  ),
  broadcast_id: v.optional(idList('broadcast', `Comma-separated broadcast ids (at most ${METRICS_MAX_FILTER_IDS}).`)),
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
