/**
 * The bench's engine warm-up. DynamoDB Local is a JVM: for its first few thousand requests its
 * compiler works on the same two cores as everything else, and a run measured then measures the
 * compiler (`BENCH_ENGINE_WARMUP=0 npm run bench`: about 85 accepted emails a second and 13 ms
 * of DynamoDB Local's CPU per email, against about 150 and 6 ms once it is warm). DynamoDB on AWS
 * is never cold in that way. So before the measured runs, a team of its own sends through
 * `POST /emails` as the measured runs do, with its request logs off and its mail held for review
 * (fraud screening blocked its payment): every email is accepted and stored, none is queued, so
 * the provider line's runs drain the same backlog as without it.
 */
import { updateTeam } from '@mailstack/core/domain/teams/update-team';
import { setDeps } from '@mailstack/core/runtime/deps';
import type { LocalHost } from '../lib/local/host.ts';
import { sendingTeam } from './bench-team.ts';

/** Sends `count` emails, `concurrency` at a time, from the warm-up team; answers the seconds they took. */
export const warmEngine = async (host: LocalHost, count: number, concurrency: number): Promise<number> => {
  const deps = host.deps;
  const { team, resend } = await sendingTeam(host, { name: 'Warm-up', domain: 'warmup.example.com' });
  await updateTeam(deps, team.id, { paymentBlocked: true });
  const queued = deps.counters.queueMessages;
  setDeps({ ...deps, config: { ...deps.config, REQUEST_LOGS_DISABLED: true } });
  const started = performance.now();
  try {
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) {
          const n = next++;
          const out = await resend.emails.send({
            from: 'Warm-up <warm@warmup.example.com>',
            to: `reader${n}@example.com`,
            subject: `Warm-up ${n}`,
            text: 'Hello from the benchmark.',
          });
          if (out.error) throw new Error(`warm-up send failed: ${out.error.message}`);
        }
      }),
    );
  } finally {
    setDeps(deps);
  }
  if (deps.counters.queueMessages !== queued)
    throw new Error(`the warm-up queued ${deps.counters.queueMessages - queued} messages; its mail must stay held`);
  return (performance.now() - started) / 1000;
};
