/**
 * The SMTP relay container's entry (ECS Fargate behind the NLB, see lib/constructs/smtp-relay.ts):
 * the relay on SMTP_PORT, a health endpoint for the load balancer, and the open-session count
 * reported to CloudWatch every minute, which the service scales on. SIGTERM stops taking new
 * sessions and lets open ones finish.
 */
import { createServer } from 'node:http';
import { CloudWatchClient, PutMetricDataCommand } from '@aws-sdk/client-cloudwatch';
import { getDeps } from '@mailstack/core/runtime/deps';
import { createRelay } from './relay.ts';

const deps = getDeps();
const config = deps.config;
if (!config.SMTP_TLS_CERT || !config.SMTP_TLS_KEY) {
  console.error(
    'smtp relay: SMTP_TLS_CERT and SMTP_TLS_KEY must hold the PEM certificate chain and private key (on AWS they come from the Secrets Manager secret named by mailstack:smtpTlsSecretName)',
  );
  process.exit(1);
}

const relay = createRelay(deps, { tls: { cert: config.SMTP_TLS_CERT, key: config.SMTP_TLS_KEY } });
const port = await relay.listen(config.SMTP_PORT, config.SMTP_LISTEN_ADDRESS);
let stopping = false;

const health = createServer((req, res) => {
  const ok = req.url === '/health' && !stopping;
  res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ status: ok ? 'ok' : 'stopping', connections: relay.connections }));
});
health.listen(config.SMTP_HEALTH_PORT, config.SMTP_LISTEN_ADDRESS);

// The per-task data points average to open sessions per task: the target-tracking metric.
const metrics = config.SMTP_METRICS_NAMESPACE ? new CloudWatchClient({ region: config.AWS_REGION }) : undefined;
const report = setInterval(() => {
  metrics
    ?.send(
      new PutMetricDataCommand({
        Namespace: config.SMTP_METRICS_NAMESPACE,
        MetricData: [
          {
            MetricName: 'ActiveConnections',
            Unit: 'Count',
            Value: relay.connections,
            Dimensions: [{ Name: 'Service', Value: config.SMTP_METRICS_SERVICE }],
          },
        ],
      }),
    )
    .catch((error: Error) => deps.logger.warn('smtp relay: could not report the session count', { error }));
}, 60_000);

deps.logger.info('smtp relay listening', { port, health: config.SMTP_HEALTH_PORT });
console.log(
  `SMTP relay on ${config.SMTP_LISTEN_ADDRESS}:${port} (STARTTLS), health on :${config.SMTP_HEALTH_PORT}/health`,
);

const stop = async () => {
  if (stopping) return;
  stopping = true;
  clearInterval(report);
  await relay.close();
  health.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
