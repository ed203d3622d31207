/**
 * `npm start`: the whole service on this machine. Flags: `--memory` (keep nothing on disk),
 * `--cloud` (plans, caps and quotas apply), `--data <dir>` (where data persists; default .data/), `--listen <address>` (the API, SMTP relay and inbox
 * listen there instead of 127.0.0.1; the engines never do). `PORT` sets the HTTP port (default
 * 3000), `SMTP_PORT` the SMTP relay's (default 2587), `INBOUND_SMTP_PORT` the inbound listener's (default 2525).
 */
import { startLocalHost } from '../lib/local/host.ts';
import { clearState, writeState } from '../lib/local/state.ts';
import { mcpResourceUrl } from '@mailstack/core/domain/oauth/resource';

const argv = process.argv.slice(2);
const args = new Set(argv);
const started = Date.now();
const dataAt = argv.indexOf('--data');
const dataDir = dataAt >= 0 ? argv[dataAt + 1] : undefined;
const listenAt = argv.indexOf('--listen');
const listenAddress = listenAt >= 0 ? argv[listenAt + 1] : undefined;
if (listenAt >= 0 && (!listenAddress || listenAddress.startsWith('--'))) {
  console.error('npm start failed: --listen needs an address, e.g. `npm start -- --listen 0.0.0.0`');
  process.exit(2);
}

// A peer that goes away mid-write (EPIPE, ECONNRESET) is not a reason for the host to die.
process.on('uncaughtException', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE' || error.code === 'ECONNRESET') {
    console.error(`local host: a connection closed under a write (${error.code}); carrying on`);
    return;
  }
  console.error('local host: fatal error', error);
  process.exit(1);
});

try {
  const host = await startLocalHost({
    port: process.env.PORT ? Number(process.env.PORT) : 3000,
    smtpPort: process.env.SMTP_PORT ? Number(process.env.SMTP_PORT) : 2587,
    inboundPort: process.env.INBOUND_SMTP_PORT ? Number(process.env.INBOUND_SMTP_PORT) : 2525,
    memory: args.has('--memory'),
    cloud: args.has('--cloud') || process.env.CLOUD === 'true',
    ...(listenAddress ? { listenAddress } : {}),
    ...(dataDir ? { dataDir } : {}),
    dashboardPort: process.env.DASHBOARD_PORT ? Number(process.env.DASHBOARD_PORT) : 3001,
  });
  writeState({ pid: process.pid, ...host.state });
  console.log(`RESEND_BASE_URL=${host.baseUrl}`);
  // The Python SDK reads its base URL from RESEND_API_URL; the other official SDKs from RESEND_BASE_URL.
  console.log(`RESEND_API_URL=${host.baseUrl}`);
  if (host.apiKey) console.log(`RESEND_API_KEY=${host.apiKey}`);
  else
    console.log(
      '# The default team already has a key; mint another with: npm run admin -- keys create --team <team-id>  (teams: npm run admin -- teams list)',
    );
  console.log(`DASHBOARD_URL=${host.dashboardUrl}`);
  if (host.firstSignInLink)
    console.log(
      `# First sign-in (admin@example.com, owner of the default team; works once, 15 minutes): ${host.firstSignInLink}`,
    );
  else console.log('# A sign-in link for a person: npm run admin -- users link --email <address>');
  console.log(`MCP_URL=${mcpResourceUrl({ PUBLIC_BASE_URL: host.baseUrl })}`);
  console.log(
    '# Connect an MCP client to MCP_URL: it registers itself, and you approve it after signing in to the dashboard.',
  );
  console.log(`MAILBOX_AGENT_URL=${host.dashboardUrl}/api/mailbox-agent`);
  console.log(
    `# Mailbox agents: MAILBOX_AGENT_URL, or the MCP server ${host.baseUrl}/mcp/<mailbox id>, with a mailbox key (mmb_) made on the mailbox's page.`,
  );
  console.log(`SMTP: 127.0.0.1:${host.smtp.port} (STARTTLS; user resend; password: an API key)`);
  console.log(
    `Inbound SMTP (local MX of the mailboxes): 127.0.0.1:${host.inbound.port} (no auth; mail sent to a local mailbox is handed here)`,
  );
  console.log(`# Local inbox (every email the service sent): ${host.inboxUrl}  (JSON: ${host.inboxUrl}/store)`);
  console.log(
    `# Content store (large bodies and attachments): S3 bucket ${host.contentStore.bucket} at ${host.contentStore.endpoint}`,
  );
  if (listenAddress && !/^(127\.|::1$|localhost$)/.test(listenAddress)) {
    console.log(
      `# WARNING: --listen ${listenAddress}: the API, the SMTP relay and the local inbox accept connections from the network.`,
    );
    console.log(
      '#          The inbox shows every email sent, unauthenticated. The engines (DynamoDB, SQS, SES, S3) stay on 127.0.0.1.',
    );
  }
  console.log(
    `# Mode: ${host.state.cloud ? 'cloud (plans and quotas apply)' : 'self-hosted (no plan caps)'}${args.has('--memory') ? ', in memory' : `, data under ${dataDir ?? '.data/'}`}; started in ${Date.now() - started} ms. Ctrl-C stops everything.`,
  );
  let stopping = false;
  // Stops every engine and exits; an engine that does not stop (its data directory deleted under
  // it, say) does not keep the process alive: it exits after STOP_DEADLINE_MS, or at a second signal.
  const STOP_DEADLINE_MS = 15_000;
  const shutdown = async () => {
    if (stopping) {
      console.error('local host: stopping now, without waiting for the engines');
      process.exit(1);
    }
    stopping = true;
    setTimeout(() => {
      console.error(`local host: the engines did not stop within ${STOP_DEADLINE_MS / 1000} s; exiting anyway`);
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    try {
      await host.stop();
    } catch (error) {
      console.error(`local host: stopping failed: ${(error as Error).message}`);
    }
    clearState();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
} catch (error) {
  console.error(`npm start failed: ${(error as Error).message}`);
  process.exit(1);
}
