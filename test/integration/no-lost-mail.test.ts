import { describe, expect, it } from 'vitest';
import { createDeps, type Deps } from '@mailstack/core/runtime/deps';
import { prepareEmail } from '@mailstack/core/domain/emails/prepare-email';
import { acceptEmails } from '@mailstack/core/domain/emails/accept-emails';
import { deliverEmail, CLAIM_LEASE_MS, CLAIM_GRACE_MS } from '@mailstack/core/domain/emails/pipeline/deliver-email';
import { callerOfKey } from '@mailstack/core/domain/caller';
import { sweepStuckEmails } from '@mailstack/core/domain/emails/pipeline/sweep-stuck-emails';
import { getEmail } from '@mailstack/core/domain/emails/manage-email';
import type { SendJob } from '@mailstack/core/domain/emails/email';
import type { QueueMessage } from '@mailstack/core/ports/queue';
import { testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';

class Crash extends Error {}

/**
 * A worker's world with the process death injected at one step: the queue is captured (this
 * test plays the worker), provider sends are counted, and the clock can be moved forward.
 */
const world = (crashAt: 'store' | 'enqueue' | 'provider' | 'none') => {
  const base = testDeps();
  const captured: SendJob[] = [];
  const offset = { ms: 0 };
  const sends = new Map<string, number>();
  let crashed = false;
  // A rate of its own, so its moved clock books places on this test's send line only (the line is
  // per region and rate), never minutes ahead on the line the shared host's workers use.
  const deps: Deps = createDeps({ ...base.config, PROVIDER_RATE_PER_SECOND: base.config.PROVIDER_RATE_PER_SECOND + 1 }, {
    clock: { now: () => Date.now() + offset.ms },
    queue: {
      send: async (_url: string, messages: readonly QueueMessage[]) => {
        if (crashAt === 'store' && !crashed) { crashed = true; throw new Crash('died after storing, before queuing'); }
        if (crashAt === 'enqueue' && !crashed) { crashed = true; return; } // queued, then the worker died: the message is lost
        captured.push(...messages.map((m) => m.body as SendJob));
      },
    },
    mail: {
      send: async (message) => {
        const out = await base.mail.send(message);
        // A send the provider accepted, per email (the sweeper also re-queues other tests' emails).
        sends.set(message.tags.email_id!, (sends.get(message.tags.email_id!) ?? 0) + 1);
        if (crashAt === 'provider' && !crashed) { crashed = true; throw new Crash('died after the provider accepted, before recording'); }
        return out;
      },
    },
  });
  /** Plays the worker: delivers every captured job (a crash kills that attempt only). */
  const work = async () => {
    for (const job of captured.splice(0)) await deliverEmail(deps, job).catch((e) => { if (!(e instanceof Crash)) throw e; });
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
  it.each(['store', 'enqueue', 'provider', 'none'] as const)('reaches a final state with exactly one provider send when the process dies after %s', async (crashAt) => {
    // Prepare
    const t = await sendingTeam();
    const w = world(crashAt);
    const auth = callerOfKey(t.key, t.team);
    const prepared = await prepareEmail(w.deps, auth, { from: t.from, to: 'delivered@resend.dev', subject: `crash after ${crashAt}`, text: 'x' });

    // Act: accept (maybe dying), work what was queued (maybe dying), then recover as the service does.
    let email;
    try {
      [email] = await acceptEmails(w.deps, auth, [prepared]);
    } catch (error) {
      if (!(error instanceof Crash)) throw error;
    }
    await w.work();
    const id = email?.id ?? (await (async () => {
      const { listEmails } = await import('@mailstack/core/domain/emails/manage-email');
      return (await listEmails(w.deps, t.team.id, { limit: 1 })).emails[0]!.id;
    })());
    // The same message may come back (SQS redelivery): harmless.
    await deliverEmail(w.deps, { teamId: t.team.id, emailId: id }).catch(() => undefined);
    // Time passes past the sweep deadline and any claim lease; the sweeper re-queues what is stuck.
    w.offset.ms = (w.deps.config.SWEEP_AFTER_SECONDS * 1000) + CLAIM_LEASE_MS + CLAIM_GRACE_MS + 1000;
    await new Promise((r) => setTimeout(r, 1500)); // the provider's own events for an accepted message arrive meanwhile
    await sweepStuckEmails(w.deps);
    await w.work();

    // Assess
    expect(await settle(w.deps, t.team.id, id)).toBe('delivered');
    expect(w.sends(id)).toBe(1);
  }, 40_000);
});
