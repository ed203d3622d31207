import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { createDeps, type Deps } from '@mailstack/core/runtime/deps';
import { readConfig } from '@mailstack/core/runtime/config';
import { prepareEmail } from '@mailstack/core/domain/emails/prepare-email';
import { acceptEmails } from '@mailstack/core/domain/emails/accept-emails';
import { callerOfKey } from '@mailstack/core/domain/caller';
import type { SendJob } from '@mailstack/core/domain/emails/email';
import type { Outcome } from '@mailstack/core/domain/emails/pipeline/deliver-email';
import { getItem } from '@mailstack/core/table/ops';
import { keys } from '@mailstack/core/table/keys';
import { busiestSecond, startSesStandIn } from '../../lib/local/stand-ins/ses.ts';
import { freePort } from '../../lib/local/ports.ts';
import { local } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';

/**
 * Many send workers, many clocks: each worker its own process (its own dependencies and
 * process-wide state, as each Lambda container), its clock skewed from the provider's by up to
 * ±SKEW_MS, frozen between batches (SIGSTOP, as Lambda freezes a container between invocations),
 * all sharing one region's line against the SES stand-in's sliding window.
 */
const RATE = 20;
const SKEW_MS = 50;
const SKEWS = [-SKEW_MS, -SKEW_MS / 3, SKEW_MS / 3, SKEW_MS];
const EMAILS = 120;
/** The most jobs a worker takes at once (SQS's batch). */
const BATCH = 10;

let ses: Awaited<ReturnType<typeof startSesStandIn>>;
let env: Record<string, string>;
let deps: Deps;

beforeAll(async () => {
  const [port, inboxPort] = [await freePort(), await freePort()];
  ses = await startSesStandIn({ port, inboxPort, ratePerSecond: RATE, window: 'sliding', events: 'send' });
  env = {
    ...(local().env as Record<string, string>),
    SES_ENDPOINT: `http://127.0.0.1:${port}`,
    PROVIDER_RATE_PER_SECOND: String(RATE),
    // Two workers' clocks differ by up to twice the skew from the provider's.
    PROVIDER_CLOCK_SKEW_MS: String(2 * SKEW_MS),
  };
  // No worker of the host takes this file's jobs: the test plays the queue.
  deps = createDeps(readConfig(env), { queue: { send: async () => undefined } });
});
afterAll(async () => {
  await ses?.stop();
});

interface Worker {
  readonly child: ChildProcess;
  busy: boolean;
  /** Frozen until this many batches are done in all (by the others). */
  frozenUntil: number | undefined;
  batches: number;
}

type Message =
  | { ready: true }
  | { batchDone: true }
  | { outcome: Outcome; job: SendJob }
  | { error: string; job: SendJob };

/**
 * Plays the send queue for `jobs` across `workers`: hands each idle, running worker a batch of the
 * jobs due, puts a retried job back with its delay, and freezes a worker after every other batch
 * it runs until two more batches are done by the others. Answers when every job is done.
 */
const playQueue = async (workers: Worker[], jobs: SendJob[]): Promise<string[]> => {
  const queue = jobs.map((job) => ({ job, at: Date.now() }));
  const errors: string[] = [];
  let left = jobs.length;
  let batchesDone = 0;
  let wake: () => void = () => undefined;
  for (const w of workers)
    w.child.on('message', (m: Message) => {
      if ('error' in m) {
        errors.push(m.error);
        left--;
      } else if ('outcome' in m) {
        if (m.outcome.kind === 'done') left--;
        else queue.push({ job: m.outcome.job, at: Date.now() + m.outcome.delaySeconds * 1000 });
      } else if ('batchDone' in m) {
        w.busy = false;
        w.batches++;
        batchesDone++;
        const running = workers.filter((o) => o.frozenUntil === undefined && o !== w);
        if (w.batches % 2 === 1 && running.length > 0) {
          w.child.kill('SIGSTOP');
          w.frozenUntil = batchesDone + 2;
        }
        for (const o of workers)
          if (o.frozenUntil !== undefined && o !== w && batchesDone >= o.frozenUntil) {
            o.child.kill('SIGCONT');
            o.frozenUntil = undefined;
          }
      }
      wake();
    });
  while (left > 0) {
    const now = Date.now();
    for (const w of workers) {
      if (w.busy || w.frozenUntil !== undefined) continue;
      queue.sort((a, b) => a.at - b.at);
      const due = queue.filter((q) => q.at <= now).slice(0, BATCH);
      if (due.length === 0) break;
      queue.splice(0, due.length);
      w.busy = true;
      w.child.send({ jobs: due.map((q) => q.job) });
    }
    // No worker running and none busy: the frozen ones thaw (the queue invokes whoever is there).
    if (workers.every((w) => !w.busy && w.frozenUntil !== undefined))
      for (const w of workers) {
        w.child.kill('SIGCONT');
        w.frozenUntil = undefined;
      }
    // Until a worker answers, or the next queued job is due (the queue's delay).
    const next = queue.length > 0 ? Math.max(0, Math.min(...queue.map((q) => q.at)) - Date.now()) : undefined;
    await new Promise<void>((r) => {
      wake = r;
      if (next !== undefined) setTimeout(r, next);
    });
  }
  return errors;
};

const startWorker = (skewMs: number): Promise<Worker> =>
  new Promise((ready, failed) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', resolve('test/support/send-worker-child.ts'), JSON.stringify(env), String(skewMs)],
      { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
    );
    child.once('error', failed);
    child.once('message', () => ready({ child, busy: false, frozenUntil: undefined, batches: 0 }));
  });

describe('many send workers, each its own process and clock, share one line', () => {
  it(`holds the provider's rate in every sliding second with clocks ±${SKEW_MS} ms apart and frozen between batches: none throttled, none lost`, async () => {
    // Prepare: a team whose domain this file's stand-in knows, and the emails in a region of their own.
    const team = await sendingTeam();
    ses.verifyIdentity(team.domain);
    const caller = callerOfKey(team.key, team.team);
    const region = `senders-${randomUUID()}`;
    const one = await prepareEmail(deps, caller, {
      from: team.from,
      to: 'delivered@resend.dev',
      subject: 's',
      text: 'x',
    });
    const three = await prepareEmail(deps, caller, {
      from: team.from,
      to: ['delivered@resend.dev', 'a@example.com', 'b@example.com'],
      subject: 's',
      text: 'x',
    });
    // Every tenth email has three recipients: each spends three of the rate.
    const emails = await acceptEmails(
      deps,
      caller,
      Array.from({ length: EMAILS }, (_, i) => {
        const p = i % 10 === 9 ? three : one;
        return { ...p, domain: { ...p.domain, region } };
      }),
    );
    const jobs: SendJob[] = emails.map((e) => ({ teamId: team.team.id, emailId: e!.id }));
    const workers = await Promise.all(SKEWS.map(startWorker));

    // Act
    let errors: string[];
    try {
      errors = await playQueue(workers, jobs);
    } finally {
      for (const w of workers) {
        w.child.kill('SIGCONT');
        w.child.kill('SIGKILL');
      }
    }

    // Assess: none refused, none lost, and no sliding second held more than the rate.
    expect(errors).toEqual([]);
    expect(ses.stats.throttled).toBe(0);
    const statuses = await Promise.all(
      jobs.map(async (j) => (await getItem(deps, keys.email.item(j.teamId, j.emailId)))?.status),
    );
    expect(statuses.filter((s) => s !== 'sent')).toEqual([]);
    expect(busiestSecond(ses.stats.admittedAt, 'sliding')).toBeLessThanOrEqual(RATE);
  }, 180_000);
});
