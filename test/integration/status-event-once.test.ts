import { describe, expect, it } from 'vitest';
import { createDeps, type Deps } from '@mailstack/core/runtime/deps';
import { prepareEmail } from '@mailstack/core/domain/emails/prepare-email';
import { acceptEmails } from '@mailstack/core/domain/emails/accept-emails';
import { deliverEmail } from '@mailstack/core/domain/emails/pipeline/deliver-email';
import { recordProviderEvent, type SesEvent } from '@mailstack/core/domain/emails/pipeline/record-provider-event';
import { getEmail } from '@mailstack/core/domain/emails/get-email';
import { emailTimeline } from '@mailstack/core/domain/events/record-event';
import { callerOfKey } from '@mailstack/core/domain/caller';
import type { SendJob } from '@mailstack/core/domain/emails/email';
import type { QueueMessage } from '@mailstack/core/ports/queue';
import { testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';

class Crash extends Error {}

/**
 * A worker's world where the process dies once, right after an email's status change is written
 * and before its event is stored (the event of type `dieBefore`): queue messages are captured
 * (this test plays the workers), and the provider accepts every message without sending events
 * back (this test plays them too).
 */
const world = (dieBefore: string) => {
  const base = testDeps();
  const captured: SendJob[] = [];
  /** The event ids handed to webhook fan-out. */
  const fannedOut: string[] = [];
  let died = false;
  const deps: Deps = createDeps(
    // A send line of its own (the line is per region and rate), apart from the shared host's.
    { ...base.config, PROVIDER_RATE_PER_SECOND: base.config.PROVIDER_RATE_PER_SECOND + 11 },
    {
      queue: {
        send: async (url: string, messages: readonly QueueMessage[]) => {
          if (url === base.config.SEND_QUEUE_URL) captured.push(...messages.map((m) => m.body as SendJob));
          if (url === base.config.EVENTS_QUEUE_URL)
            fannedOut.push(...messages.map((m) => (m.body as { eventId: string }).eventId));
        },
      },
      mail: { send: async (m) => ({ providerMessageId: `status-event-${m.tags.email_id}` }) },
      // The line's rate stays this test's own (the shared stand-in's GetAccount would lower it to the host's).
      providerAccount: {
        read: async () => ({ ...(await base.providerAccount.read('us-east-1')), maxSendRate: undefined }),
      },
    },
  );
  // The process dies just before it stores the event (a put of its own, not part of a transaction).
  const store = deps.tableStore;
  const dying: Deps = {
    ...deps,
    tableStore: {
      ...store,
      put: async (input) => {
        const item = input.Item as { type?: string; event_type?: string } | undefined;
        if (!died && item?.type === 'event' && item.event_type === dieBefore) {
          died = true;
          throw new Crash(`died before storing ${dieBefore}`);
        }
        return store.put(input);
      },
    },
  };
  return { deps: dying, captured, fannedOut, died: () => died };
};

/** The events of the email, by type, and whether each was handed to fan-out. */
const eventsOf = async (w: ReturnType<typeof world>, teamId: string, emailId: string) => {
  const byType: Record<string, number> = {};
  for (const e of await emailTimeline(w.deps, teamId, emailId)) {
    byType[e.type] = (byType[e.type] ?? 0) + 1;
    if (!w.fannedOut.includes(e.id)) byType[`${e.type} not fanned out`] = 1;
  }
  return byType;
};

const sesEvent = (eventType: string, teamId: string, emailId: string): SesEvent => ({
  eventType,
  mail: { messageId: `status-event-${emailId}`, tags: { team_id: [teamId], email_id: [emailId] } },
});

describe("an email's status change and its event, two writes", () => {
  it('stores the sent event exactly once when the send worker dies between them and its job comes back', async () => {
    // Prepare
    const t = await sendingTeam();
    const w = world('email.sent');
    const auth = callerOfKey(t.key, t.team);
    const prepared = await prepareEmail(w.deps, auth, { from: t.from, to: 'a@example.com', subject: 's', text: 'x' });
    const [email] = await acceptEmails(w.deps, auth, [prepared]);
    const job = w.captured.shift()!;

    // Act: the worker dies after recording `sent`; SQS brings the job back, twice.
    await expect(deliverEmail(w.deps, job)).rejects.toBeInstanceOf(Crash);
    const between = await eventsOf(w, t.team.id, email!.id);
    await deliverEmail(w.deps, job);
    await deliverEmail(w.deps, job);

    // Assess
    expect(w.died()).toBe(true);
    expect((await getEmail(w.deps, t.team.id, email!.id)).status).toBe('sent');
    expect(between['email.sent']).toBeUndefined();
    expect(await eventsOf(w, t.team.id, email!.id)).toEqual({ 'email.sent': 1 });
  }, 60_000);

  it("stores a provider event's change exactly once when its worker dies between them and the event comes back", async () => {
    // Prepare
    const t = await sendingTeam();
    const w = world('email.delivered');
    const auth = callerOfKey(t.key, t.team);
    const prepared = await prepareEmail(w.deps, auth, { from: t.from, to: 'b@example.com', subject: 's', text: 'x' });
    const [email] = await acceptEmails(w.deps, auth, [prepared]);
    await deliverEmail(w.deps, w.captured.shift()!);
    const delivery = sesEvent('Delivery', t.team.id, email!.id);

    // Act: the provider's Send (after the worker's own `sent`), then its Delivery, whose worker
    // dies after the change; SNS delivers the Delivery again, twice.
    expect(await recordProviderEvent(w.deps, sesEvent('Send', t.team.id, email!.id))).toBe('ignored');
    await expect(recordProviderEvent(w.deps, delivery)).rejects.toBeInstanceOf(Crash);
    const between = await eventsOf(w, t.team.id, email!.id);
    await recordProviderEvent(w.deps, delivery);
    await recordProviderEvent(w.deps, delivery);

    // Assess
    expect(w.died()).toBe(true);
    expect((await getEmail(w.deps, t.team.id, email!.id)).status).toBe('delivered');
    expect(between['email.delivered']).toBeUndefined();
    expect(await eventsOf(w, t.team.id, email!.id)).toEqual({ 'email.sent': 1, 'email.delivered': 1 });
  }, 60_000);
});
