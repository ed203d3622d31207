/**
 * A send worker in its own process, as each Lambda container is on AWS: its own clock (skewed by
 * `skewMs` from the host's: every Date.now() of the process, so the transport's wait for a
 * call's instant is skewed too), its own dependencies and its own process-wide state.
 * `node --import tsx send-worker-child.ts '<env json>' <skewMs>`, with an IPC channel: the parent
 * (the queue) sends `{ jobs }`; the worker runs them together, as a batch of the send queue, and
 * answers each outcome (`{ outcome, job }`) and then `{ batchDone: true }`. Queue sends are
 * dropped: the parent plays the queue.
 */
import { readConfig } from '@mailstack/core/runtime/config';
import { createDeps } from '@mailstack/core/runtime/deps';
import { deliverEmail } from '@mailstack/core/domain/emails/pipeline/deliver-email';
import type { SendJob } from '@mailstack/core/domain/emails/email';

const [envJson, skew] = process.argv.slice(2);
const skewMs = Number(skew ?? 0);
const trueNow = Date.now.bind(Date);
Date.now = () => trueNow() + skewMs;

const deps = createDeps(readConfig(JSON.parse(envJson!)), { queue: { send: async () => undefined } });

process.on('message', async (message: { jobs: SendJob[] }) => {
  await Promise.all(
    message.jobs.map(async (job) => {
      try {
        const outcome = await deliverEmail(deps, job);
        process.send!({ outcome, job });
      } catch (error) {
        process.send!({ error: (error as Error).message, job });
      }
    }),
  );
  process.send!({ batchDone: true });
});
process.send!({ ready: true });
