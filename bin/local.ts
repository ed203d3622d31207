/**
 * `npm start`: the whole service on this machine. Flags: `--memory` (keep nothing on disk),
 * `--cloud` (plans, caps and quotas apply). `PORT` sets the HTTP port (default 3000), `SMTP_PORT`
 * the SMTP relay's (default 2587).
 */
import { startLocalHost } from '../lib/local/host.ts';
import { clearState, writeState } from '../lib/local/state.ts';

const args = new Set(process.argv.slice(2));
const started = Date.now();

try {
  const host = await startLocalHost({
    port: process.env.PORT ? Number(process.env.PORT) : 3000,
    smtpPort: process.env.SMTP_PORT ? Number(process.env.SMTP_PORT) : 2587,
    memory: args.has('--memory'),
    cloud: args.has('--cloud') || process.env.CLOUD === 'true',
  });
  writeState({ pid: process.pid, ...host.state });
  console.log(`RESEND_BASE_URL=${host.baseUrl}`);
  if (host.apiKey) console.log(`RESEND_API_KEY=${host.apiKey}`);
  else console.log('# The default team already has a key; mint another with: npm run admin -- keys create --team <team-id>  (teams: npm run admin -- teams list)');
  console.log(`SMTP: 127.0.0.1:${host.smtp.port} (STARTTLS; user resend; password: an API key)`);
  console.log(`# Local inbox (every email the service sent): ${host.inboxUrl}  (JSON: ${host.inboxUrl}/store)`);
  console.log(`# Mode: ${host.state.cloud ? 'cloud (plans and quotas apply)' : 'self-hosted (no plan caps)'}${args.has('--memory') ? ', in memory' : ', data under .data/'}; started in ${Date.now() - started} ms. Ctrl-C stops everything.`);
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await host.stop();
    clearState();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
} catch (error) {
  console.error(`npm start failed: ${(error as Error).message}`);
  process.exit(1);
}
