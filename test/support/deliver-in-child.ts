/**
 * Runs one webhook delivery job in its own process (so a test can kill it mid-request):
 * `tsx deliver-in-child.ts '<env json>' '<job json>'`. Queue sends are dropped; the job is
 * attempted exactly as the worker would.
 */
import { readConfig } from '@mailstack/core/runtime/config';
import { createDeps } from '@mailstack/core/runtime/deps';
import { deliverWebhook } from '@mailstack/core/domain/webhooks/deliver';

const [envJson, jobJson] = process.argv.slice(2);
const deps = createDeps(readConfig(JSON.parse(envJson!)), { queue: { send: async () => undefined } });
process.stdout.write('started\n');
await deliverWebhook(deps, JSON.parse(jobJson!));
process.stdout.write('finished\n');
