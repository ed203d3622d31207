import { describe, expect, it } from 'vitest';
import { createDeps, type Deps } from '@mailstack/core/runtime/deps';
import { prepareEmail } from '@mailstack/core/domain/emails/prepare-email';
import { acceptEmails } from '@mailstack/core/domain/emails/accept-emails';
import { deliverEmail } from '@mailstack/core/domain/emails/pipeline/deliver-email';
import { CLAIM_LEASE_MS, CLAIM_GRACE_MS } from '@mailstack/core/domain/emails/pipeline/email-claim';
import { callerOfKey } from '@mailstack/core/domain/caller';
import { sweepStuckEmails } from '@mailstack/core/domain/emails/pipeline/sweep-stuck-emails';
import { getEmail } from '@mailstack/core/domain/emails/get-email';
import type { SendJob } from '@mailstack/core/domain/emails/email';
import type { QueueMessage } from '@mailstack/core/ports/queue';
import { testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';

class Crash extends Error {}

/** Where the process dies: after storing, after queuing, after the provider accepted, or nowhere. */
const CASES = ['store', 'enqueue', 'provider', 'none'] as const;

/**
 * A worker's world with the process death injected at one step: the queue is captured (this
 * test plays the worker), provider sends are counted, and the clock can be moved forward.
 */
const world = (crashAt: (typeof CASES)[number], teamId: string) => {
  const base = testDeps();
  const captured: SendJob[] = [];
  const offset = { ms: 0 };
  const sends = new Map<string, number>();
  let crashed = false;
  // A rate of its own for each case, so a moved clock books places on that case's send line only
  // (the line is per region and rate): never minutes ahead on the line the shared host's workers
  // use, nor on the next case's.
  const rate = base.config.PROVIDER_RATE_PER_SECOND + 1 + CASES.indexOf(crashAt);
  const deps: Deps = createDeps(
    { ...base.config, PROVIDER_RATE_PER_SECOND: rate },
    {
      clock: { now: () => Date.now() + offset.ms },
      // The line's rate stays this test's own (the shared stand-in's GetAccount would lower it to the host's).
      providerAccount: {
        read: async () => ({ ...(await base.providerAccount.read('us-east-1')), maxSendRate: undefined }),
      },
      queue: {
        send: async (_url: string, messages: readonly QueueMessage[]) => {
          if (crashAt === 'store' && !crashed) {
            crashed = true;
            throw new Crash('died after storing, before queuing');
          }
          if (crashAt === 'enqueue' && !crashed) {
            crashed = true;
            return;
          } // queued, then the worker died: the message is lost
          captured.push(...messages.map((m) => m.body as SendJob));
        },
      },
      mail: {
        send: async (message) => {
          const out = await base.mail.send(message);
          // A send the provider accepted, per email (the sweeper also re-queues other tests' emails).
          sends.set(message.tags.email_id!, (sends.get(message.tags.email_id!) ?? 0) + 1);
          if (crashAt === 'provider' && !crashed) {
            crashed = true;
            throw new Crash('died after the provider accepted, before recording');
          }
          return out;
        },
      },
    },
  );
  /**
   * Plays the worker: delivers every captured job (a crash kills that attempt only); a job the
   * worker hands back for later (a booked place in the send line, the shared provider stand-in
   * throttling a busy test run) comes back after its delay, as the queue brings it back. Only
   * this test's team's jobs: the moved clock's sweep also finds other tests' queued mail, which
   * is theirs to send (taking its claim here would steal it from a test running beside this one).
   */
  const work = async (withinMs = 20_000) => {
    const until = Date.now() + withinMs;
    const jobs = captured
      .splice(0)
      .filter((job) => job.teamId === teamId)
      .map((job) => ({ job, at: 0 }));
    while (jobs.length > 0 && Date.now() < until) {
      jobs.sort((a, b) => a.at - b.at);
      const next = jobs.shift()!;
      if (next.at > Date.now()) await new Promise((r) => setTimeout(r, next.at - Date.now()));
      const outcome = await deliverEmail(deps, next.job).catch((e) => {
        if (!(e instanceof Crash)) throw e;
        return undefined;
      });
      if (outcome?.kind === 'retry') jobs.push({ job: outcome.job, at: Date.now() + outcome.delaySeconds * 1000 });
    }
  };
  return { deps, captured, offset, work, sends: (id: string) => sends.get(id) ?? 0 };
};

const settle = async (deps: Deps, teamId: string, id: string, timeoutMs = 15_000) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const e = await getEmail(deps, teamId, id);
    if (['delivered', 'bounced', 'complained', 'failed'].includes(e.status)) return e.status;
    if (Date.now() > deadline) return e.status;
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('no accepted email is lost when a process dies mid-way', () => {
  it.each(CASES)(
    'reaches a final state with exactly one provider send when the process dies after %s',
    async (crashAt) => {
      // Prepare
      const t = await sendingTeam();
      const w = world(crashAt, t.team.id);
      const auth = callerOfKey(t.key, t.team);
      const prepared = await prepareEmail(w.deps, auth, {
        from: t.from,
        to: 'delivered@resend.dev',
        subject: `crash after ${crashAt}`,
        text: 'x',
      });

      // Act: accept (maybe dying), work what was queued (maybe dying), then recover as the service does.
      let email;
      try {
        [email] = await acceptEmails(w.deps, auth, [prepared]);
      } catch (error) {
        if (!(error instanceof Crash)) throw error;
      }
      await w.work();
      const id =
        email?.id ??
        (await (async () => {
          const { listEmails } = await import('@mailstack/core/domain/emails/list-emails');
          return (await listEmails(w.deps, t.team.id, { limit: 1 })).items[0]!.id;
        })());
      // The same message may come back (SQS redelivery): harmless.
      w.captured.push({ teamId: t.team.id, emailId: id });
      await w.work();
      // Time passes past the sweep deadline and any claim lease; the sweeper re-queues what is stuck.
      w.offset.ms = w.deps.config.SWEEP_AFTER_SECONDS * 1000 + CLAIM_LEASE_MS + CLAIM_GRACE_MS + 1000;
      await new Promise((r) => setTimeout(r, 1500)); // the provider's own events for an accepted message arrive meanwhile
      await sweepStuckEmails(w.deps);
      await w.work();

      // Assess
      expect(await settle(w.deps, t.team.id, id)).toBe('delivered');
      expect(w.sends(id)).toBe(1);
    },
    90_000,
  );
});
