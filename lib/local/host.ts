import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import type { ChildProcess } from 'node:child_process';
import { CreateQueueCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { readConfig } from '@mailstack/core/runtime/config';
import { createDeps, setDeps, type Deps } from '@mailstack/core/runtime/deps';
import { tableScheduler } from '@mailstack/core/adapters/aws/table-scheduler';
import { listTeams } from '@mailstack/core/domain/teams/list-teams';
import { createTeam } from '@mailstack/core/domain/teams/create-team';
import { createApiKey } from '@mailstack/core/domain/api-keys/create-api-key';
import { byOperator } from '@mailstack/core/domain/api-keys/key-audit';
import {
  QUEUES,
  consumedQueues,
  queueVisibilitySeconds,
  readQueueVisibility,
  type QueueName,
} from '../../functions/workers.ts';
import { assertPortFree, freePort } from './ports.ts';
import { ensureTable, startDynamo } from './dynamo-engine.ts';
import { startS3Engine } from './s3-engine.ts';
import { LOCAL_EVENTS_TOPIC_ARN, startSesStandIn, type ProviderStats } from './stand-ins/ses.ts';
import { createApiServer } from './server.ts';
import { createRelay } from '../../functions/smtp/relay.ts';
import { selfSignedCertificate } from './certificate.ts';
import { linkSecret } from './link-secret.ts';
import { startSchedulerLoop, startTimers, startWorkers, type Loop } from './workers.ts';
import type { LocalState } from './state.ts';
import { DEFAULT_PROVIDER_RATE_PER_SECOND } from '@mailstack/core/limits';
import { createAdaptorServer } from '@hono/node-server';
import { createUser } from '@mailstack/core/domain/people/create-user';
import { addMember } from '@mailstack/core/domain/people/add-member';
import { signInLink } from '@mailstack/core/domain/people/sign-in-link';
import { createDashboard } from '../../functions/dashboard/app.ts';
import nodemailer from 'nodemailer';
import { isMailboxAddress } from '@mailstack/core/domain/mailboxes/receive-message';
import { createInboundListener } from './inbound-smtp.ts';
import { memoryInboundRecipients } from '@mailstack/core/ports/inbound-recipients';
import { syncInboundRecipients } from '@mailstack/core/domain/domains/inbound-recipients';
import { newCounters, sqsRequests, type AdapterCounters } from '@mailstack/core/adapters/aws/counters';
import { createClients } from '@mailstack/core/adapters/aws/clients';

// The SDK's Node-version notice is noise for a local host; the engines are pinned and tested.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// Metrics go to CloudWatch as embedded-metric log lines on AWS; locally they would only print.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');

/** Options of the local host. */
export interface LocalHostOptions {
  /** HTTP port of the API; 0 picks a free one. @default - 3000 */
  readonly port?: number;
  /** Keep everything in memory instead of under `dataDir`. @default - false */
  readonly memory?: boolean;
  /** Where data persists. @default - .data/ in the working directory */
  readonly dataDir?: string;
  /** Cloud mode: plans, caps and quotas apply. @default - false (self-hosted) */
  readonly cloud?: boolean;
  /** Extra runtime settings (environment variables of the handlers). */
  readonly env?: Record<string, string>;
  /** Start the queue workers at once; false holds them until `startWorkers()` (the benchmark). @default - true */
  readonly workers?: boolean;
  /** Run the timers (sweepers) on their intervals; false leaves them to the caller (the cost model times them apart). @default - true */
  readonly timers?: boolean;
  /** Port of the SMTP relay (STARTTLS); 0 picks a free one. @default - 2587 */
  readonly smtpPort?: number;
  /**
   * The address the API, the SMTP relay and the inbox page listen on. Anything but loopback
   * exposes them to the network (`npm start -- --listen 0.0.0.0` warns). The engines
   * (DynamoDB Local, SQS, SES, S3) always listen on 127.0.0.1 only. @default - 127.0.0.1
   */
  readonly listenAddress?: string;
  /** Port of the dashboard (its own origin); 0 picks a free one. @default - 3001 */
  readonly dashboardPort?: number;
  /** The first person's address, made owner of the default team on the first start. @default - admin@example.com */
  readonly firstUserEmail?: string;
  /** Port of the inbound SMTP listener (the local MX of the mailboxes); 0 picks a free one. @default - 2525 */
  readonly inboundPort?: number;
}

/** A running local host. */
export interface LocalHost {
  readonly baseUrl: string;
  readonly inboxUrl: string;
  /** The dashboard's origin. */
  readonly dashboardUrl: string;
  /** A one-time sign-in link for the first person, when this start created them. */
  readonly firstSignInLink: string | undefined;
  /** The embedded S3 server holding the content store's bucket (large bodies and attachments). */
  readonly contentStore: { readonly endpoint: string; readonly bucket: string };
  /** The SMTP relay: its port on 127.0.0.1 and the self-signed certificate it presents (PEM). */
  readonly smtp: { readonly port: number; readonly certificate: string };
  /** The inbound SMTP listener (local MX of the mailboxes, no auth, no TLS) on 127.0.0.1. */
  readonly inbound: { readonly port: number };
  /** The default team's key, when this start created it. */
  readonly apiKey: string | undefined;
  readonly state: Omit<LocalState, 'pid'>;
  readonly deps: Deps;
  /** What the SES stand-in accepted and throttled (for the benchmark). */
  readonly provider: ProviderStats;
  /** Starts the queue workers when the host was started without them. */
  startWorkers(): void;
  stop(): Promise<void>;
}

/** Stops an engine process and waits for it to exit (SIGKILL after 5 s). */
const stopChild = (child: ChildProcess): Promise<void> =>
  new Promise((resolveStop) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolveStop();
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolveStop();
    });
    child.kill('SIGTERM');
  });

const listen = (server: Server, port: number, address: string): Promise<number> =>
  new Promise((resolveListen, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(
              `port ${port} is already in use: stop the other process (another \`npm start\`?) or set PORT to a free port`,
            )
          : error,
      ),
    );
    server.listen(port, address, () => {
      const address = server.address();
      resolveListen(typeof address === 'object' && address ? address.port : port);
    });
  });

/**
 * Starts the whole service on this machine: DynamoDB Local, the SQS engine, the SES stand-in
 * with its inbox, the local scheduler, the workers, and the HTTP API over the same handlers
 * that run on AWS.
 */
export const startLocalHost = async (options: LocalHostOptions = {}): Promise<LocalHost> => {
  const requestedPort = options.port ?? 3000;
  const listenAddress = options.listenAddress ?? '127.0.0.1';
  const smtpPort = options.smtpPort ?? 2587;
  if (requestedPort !== 0) await assertPortFree(requestedPort, 'HTTP API');
  if (smtpPort !== 0) await assertPortFree(smtpPort, 'SMTP relay');
  const requestedInboundPort = options.inboundPort ?? 2525;
  if (requestedInboundPort !== 0) await assertPortFree(requestedInboundPort, 'inbound SMTP listener');
  const requestedDashboardPort = options.dashboardPort ?? 3001;
  if (requestedDashboardPort !== 0) await assertPortFree(requestedDashboardPort, 'dashboard');
  const dataDir = options.memory ? undefined : resolve(options.dataDir ?? resolve(process.cwd(), '.data'));
  const [dynamoPort, sqsPort, sesPort, inboxPort, s3Port] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];

  const stops: (() => Promise<void> | void)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s();
  };
  try {
    const dynamo: ChildProcess = await startDynamo(dynamoPort, dataDir ? resolve(dataDir, 'dynamodb') : undefined);
    stops.push(() => stopChild(dynamo));
    const dynamoEndpoint = `http://127.0.0.1:${dynamoPort}`;
    const tableName = 'mailstack';
    await ensureTable(dynamoEndpoint, tableName);

    const { createSqsServer } = await import('local-aws-sqs');
    const sqsServer = await createSqsServer({
      port: sqsPort,
      hostname: '127.0.0.1',
      emulateQueueCreationLifecycle: false,
    } as any);
    stops.push(
      () =>
        new Promise<void>((r) => {
          sqsServer.closeAllConnections?.();
          sqsServer.close(() => r());
        }),
    );

    const s3 = await startS3Engine(s3Port, dataDir ? resolve(dataDir, 's3') : undefined);
    stops.push(() => s3.stop());

    const providerRate = Number(
      options.env?.PROVIDER_RATE_PER_SECOND ?? process.env.PROVIDER_RATE_PER_SECOND ?? DEFAULT_PROVIDER_RATE_PER_SECOND,
    );
    const ses = await startSesStandIn({
      port: sesPort,
      inboxPort,
      stateFile: dataDir ? resolve(dataDir, 'ses-identities.json') : undefined,
      ratePerSecond: providerRate,
      inboxAddress: listenAddress,
      window: (options.env?.PROVIDER_WINDOW ?? process.env.PROVIDER_WINDOW) === 'sliding' ? 'sliding' : 'calendar',
    });
    stops.push(() => ses.stop());

    let counters: AdapterCounters | undefined;
    const httpServer = createApiServer(resolve(ROOT, 'functions'), () => counters);
    const port = await listen(httpServer, requestedPort, listenAddress);
    stops.push(
      () =>
        new Promise<void>((r) => {
          httpServer.closeAllConnections();
          httpServer.close(() => r());
        }),
    );
    const baseUrl = `http://127.0.0.1:${port}`;
    // The dashboard on its own port (its own origin), over the same deps as the API.
    let dashboardDeps: Deps | undefined;
    const dashboardServer = createAdaptorServer({
      fetch: createDashboard({ deps: () => dashboardDeps! }).fetch,
    }) as Server;
    const dashboardPort = await listen(dashboardServer, requestedDashboardPort, '127.0.0.1');
    stops.push(
      () =>
        new Promise<void>((r) => {
          dashboardServer.closeAllConnections();
          dashboardServer.close(() => r());
        }),
    );
    const dashboardUrl = `http://127.0.0.1:${dashboardPort}`;

    const baseEnv: Record<string, string> = {
      TABLE_NAME: tableName,
      AWS_REGION: 'us-east-1',
      DYNAMODB_ENDPOINT: dynamoEndpoint,
      SQS_ENDPOINT: `http://127.0.0.1:${sqsPort}`,
      SES_ENDPOINT: `http://127.0.0.1:${sesPort}`,
      S3_ENDPOINT: s3.endpoint,
      CONTENT_BUCKET: s3.bucket,
      SCHEDULER_MODE: 'local',
      CLOUD: options.cloud ? 'true' : 'false',
      PUBLIC_BASE_URL: baseUrl,
      APP_URL: baseUrl,
      DASHBOARD_URL: dashboardUrl,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'ERROR',
      SES_EVENTS_TOPIC_ARN: LOCAL_EVENTS_TOPIC_ARN,
      PROVIDER_RATE_PER_SECOND: String(providerRate),
      TOKEN_SECRET: linkSecret(dataDir),
      POWERTOOLS_DEV: 'false',
      POWERTOOLS_METRICS_DISABLED: 'true',
      // A developer receives webhooks on this machine: http and loopback targets are allowed.
      WEBHOOK_TARGETS: 'any',
      ...options.env,
    };
    // The host's own clients (queues made and polled, the scheduler loop's reads), apart from the
    // handlers' deps and their counters.
    const clients = createClients(readConfig({ ...process.env, ...baseEnv }), newCounters());
    const queueUrls = {} as Record<QueueName, string>;
    // Each queue's visibility as the stack sets it (mailstack:queueVisibilitySeconds there,
    // QUEUE_VISIBILITY_SECONDS here): a record its worker fails comes back after it.
    const visibilitySetting = readQueueVisibility(
      options.env?.QUEUE_VISIBILITY_SECONDS ?? process.env.QUEUE_VISIBILITY_SECONDS,
      'QUEUE_VISIBILITY_SECONDS',
    );
    const visibility = (name: QueueName) => queueVisibilitySeconds(name, visibilitySetting) ?? 0;
    for (const name of consumedQueues()) {
      const q = QUEUES[name];
      const out = await clients.sqs.send(
        new CreateQueueCommand({
          QueueName: name,
          Attributes: { VisibilityTimeout: String(Math.max(visibility(name), q.visibilityTimeoutSeconds)) },
        }),
      );
      queueUrls[name] = out.QueueUrl ?? '';
      baseEnv[q.env] = queueUrls[name];
    }
    // The handlers run in this process and take these deps; process.env is left alone.
    // The inbound receipt rule's stand-in: named for the held domains at each domain change this
    // host makes, and now (from the table).
    const deps = createDeps(readConfig({ ...process.env, ...baseEnv }), {
      inboundRecipients: memoryInboundRecipients(),
    });
    setDeps(deps);
    counters = deps.counters;
    await syncInboundRecipients(deps);
    // On AWS SES publishes each event to SNS, which puts it on the provider-events queue.
    ses.setEventsSink(async (notification) => {
      const body = JSON.stringify(notification);
      await clients.sqs.send(new SendMessageCommand({ QueueUrl: queueUrls['provider-events'], MessageBody: body }));
      deps.counters.snsNotifications += 1;
      deps.counters.queueRequests += sqsRequests(Buffer.byteLength(body));
    });
    dashboardDeps = deps;

    const tls = await selfSignedCertificate();
    const relay = createRelay(deps, { tls, hostname: 'localhost' });
    const relayPort = await relay.listen(smtpPort, listenAddress);
    stops.push(() => relay.close());
    // The local MX: mail for the mailboxes, from the SES stand-in (a local mailbox writing to
    // another) or from any SMTP client.
    const inbound = createInboundListener(deps);
    const inboundPort = await inbound.listen(requestedInboundPort, '127.0.0.1');
    stops.push(() => inbound.close());
    const toInbound = nodemailer.createTransport({
      host: '127.0.0.1',
      port: inboundPort,
      secure: false,
      ignoreTLS: true,
    });
    stops.push(() => toInbound.close());
    ses.setInboundHandoff(async (from, recipients, raw) => {
      const bare = (a: string) => (/<([^>]+)>\s*$/.exec(a)?.[1] ?? a).trim();
      const local: string[] = [];
      for (const r of recipients.map(bare)) if (await isMailboxAddress(deps, r)) local.push(r);
      if (local.length === 0) return;
      await toInbound.sendMail({ envelope: { from: bare(from), to: local }, raw });
    });

    let apiKey: string | undefined;
    let firstSignInLink: string | undefined;
    if ((await listTeams(deps)).length === 0) {
      const team = await createTeam(deps, { name: 'Default team' });
      apiKey = (
        await createApiKey(
          deps,
          { teamId: team.id, name: 'Default key', permission: 'full_access' },
          byOperator('npm start'),
        )
      ).secret;
      // The first person owns the default team; their sign-in link is printed once.
      const user = await createUser(deps, { email: options.firstUserEmail ?? 'admin@example.com', name: 'Admin' });
      await addMember(deps, team, user, 'owner');
      firstSignInLink = await signInLink(deps, user);
    }

    const loops: Loop[] = [
      ...(options.timers === false ? [] : [startTimers(resolve(ROOT, 'functions'), deps.counters)]),
      // The loop stands in for EventBridge Scheduler: its polls go through a client of its own,
      // apart from the handlers' counters (the schedules the handlers write are theirs).
      startSchedulerLoop(tableScheduler(clients.db, deps.table), async (queueUrl, body) => {
        await clients.sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(body) }));
      }),
    ];
    stops.splice(stops.length - 1, 0, async () => {
      for (const l of loops) await l.stop();
    });
    let workersStarted = false;
    const beginWork = () => {
      if (workersStarted) return;
      workersStarted = true;
      loops.push(startWorkers(clients.sqs, resolve(ROOT, 'functions'), queueUrls, deps.counters, visibility));
    };
    if (options.workers !== false) beginWork();

    const inboxUrl = `http://127.0.0.1:${inboxPort}`;
    return {
      baseUrl,
      inboxUrl,
      dashboardUrl,
      firstSignInLink,
      contentStore: { endpoint: s3.endpoint, bucket: s3.bucket },
      smtp: { port: relayPort, certificate: tls.cert },
      inbound: { port: inboundPort },
      apiKey,
      deps,
      provider: ses.stats,
      startWorkers: beginWork,
      state: {
        baseUrl,
        inboxUrl,
        dashboardUrl,
        smtpPort: relayPort,
        inboundPort,
        tableName,
        cloud: options.cloud === true,
        env: baseEnv,
        queueUrls,
      },
      stop: async () => {
        await stop();
        setDeps(undefined);
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
};
