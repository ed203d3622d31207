import { apiRoute } from '@mailstack/core/http/api-route';
import { emailMetrics } from '@mailstack/core/domain/metrics/email-metrics';
import { EmailMetricsObject, MetricsQuery } from '@mailstack/core/schemas/metrics';

/** GET /emails/metrics */
export const handler = apiRoute({
  access: 'full',
  response: EmailMetricsObject,
  query: MetricsQuery,
  handler: async ({ deps, auth, query }) => emailMetrics(deps, auth.team.id, query),
});
