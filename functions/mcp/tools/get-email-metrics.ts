import { handler } from '../../emails/get-email-metrics.ts';
import { routeTool } from '../tool.ts';
import { EMAIL_METRICS } from '@mailstack/core/domain/metrics/email-metrics';

/** GET /emails/metrics */
export const tool = routeTool({
  name: 'get_email_metrics',
  scope: 'emails:read',
  route: 'GET /emails/metrics',
  handler,
  description: `Get the team's email metrics over a date range (start_date, end_date: ISO dates or datetimes; default the last 7 days): ${EMAIL_METRICS.join(', ')} (rates are percentages). Break them down with dimensions (comma-separated: period, domain, email, broadcast; period buckets by granularity hourly/daily/weekly/monthly in an IANA timezone) and narrow them with domain_id, email_id or broadcast_id (comma-separated ids; the email dimension needs email_id).`,
});
