import { enqueueDelivery, envelope, type EventMessage } from './deliver.ts';
import type { Deps } from '../../runtime/deps.ts';
import { deliveryStore, webhookStore, type WebhookRecord } from '../../table/webhooks.ts';
import { eventStore } from '../../table/events.ts';

/** The event a message names: carried whole, or read. */
const eventOf = (deps: Deps, m: EventMessage) =>
  m.createdAt !== undefined && m.data !== undefined
    ? { id: m.eventId, teamId: m.teamId, type: m.type, createdAt: m.createdAt, data: m.data, dispatched: true }
    : eventStore.get(deps, m.teamId, m.eventId);

/**
 * Fans one recorded event out to every enabled endpoint of its team subscribed to its type:
 * a delivery row per endpoint (created once, however often the message repeats) and a job on
 * the webhook queue. Endpoints disabled now never see the event, even when re-enabled later.
 */
export const fanOutEvent = async (
  deps: Deps,
  message: EventMessage,
  teamEndpoints?: readonly WebhookRecord[],
): Promise<number> => {
  const endpoints = (teamEndpoints ?? (await webhookStore.all(deps, message.teamId))).filter(
    (w) => w.status === 'enabled' && w.events.includes(message.type),
  );
  const event = endpoints.length === 0 ? undefined : await eventOf(deps, message);
  if (event) {
    const now = deps.clock.now();
    const payload = envelope(event);
    await Promise.all(
      endpoints.map(async (w) => {
        await deliveryStore.create(
          deps,
          {
            teamId: event.teamId,
            webhookId: w.id,
            eventId: event.id,
            eventType: event.type,
            payload,
            messageId: `msg_${event.id}`,
            status: 'pending',
            queuedAt: now,
            createdAt: event.createdAt,
            failures: 0,
            nextAttemptAt: now,
          },
          deps.config.WEBHOOK_DELIVERY_RETENTION_DAYS,
        );
        // Sent even when the row already existed: a fan-out that died before queuing must still queue.
        await enqueueDelivery(deps, { teamId: event.teamId, webhookId: w.id, eventId: event.id }, 0);
      }),
    );
  }
  // Handed over (or nothing to hand over): the event sweeper stops watching it. Only after the
  // deliveries are queued, so a fan-out that dies midway leaves the event for its queue message.
  if (message.data === undefined && !event?.dispatched)
    await eventStore.markDispatched(deps, message.teamId, message.eventId);
  return event ? endpoints.length : 0;
};

/** Fans out a batch of event messages, reading each team's endpoints once for the batch. */
export const fanOutEvents = async (deps: Deps, messages: readonly EventMessage[]): Promise<void> => {
  const teams = new Map<string, Promise<WebhookRecord[]>>();
  for (const m of messages) if (!teams.has(m.teamId)) teams.set(m.teamId, webhookStore.all(deps, m.teamId));
  await Promise.all(messages.map(async (m) => fanOutEvent(deps, m, await teams.get(m.teamId)!)));
};
