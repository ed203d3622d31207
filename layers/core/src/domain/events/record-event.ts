import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { putItem, queryPages } from '../../table/ops.ts';
import { emailExpiry } from '../emails/retention.ts';

/** Every event type the service records (spec §6); each can be subscribed to by a webhook endpoint. */
export const EVENT_TYPES = [
  'email.sent',
  'email.scheduled',
  'email.delivered',
  'email.delivery_delayed',
  'email.complained',
  'email.bounced',
  'email.opened',
  'email.clicked',
  'email.prefetched',
  'email.failed',
  'email.suppressed',
  'email.canceled',
  'email.received',
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'contact.unsubscribed',
  'contact.resubscribed',
  'contact.topic_opt_in',
  'contact.topic_opt_out',
  'contact.topics.updated',
  'contact.erased',
  'suppression.added',
  'suppression.removed',
  'domain.created',
  'domain.updated',
  'domain.deleted',
  'domain.claim.verified',
  'domain.claim.completed',
  'topic.created',
  'topic.updated',
  'topic.deleted',
  'inbox.created',
  'inbox.updated',
  'inbox.deleted',
  'inbox.thread.created',
  'inbox.thread.folder.updated',
  'inbox.thread.labels.updated',
  'inbox.email.received',
  'inbox.email.sent',
  'inbox.draft.created',
  'inbox.draft.updated',
  'inbox.draft.sent',
  'inbox.draft.deleted',
  'deliverability.warning',
  'deliverability.paused',
  'quota.warning',
  'quota.reached',
  'quota.paused',
] as const;

/** An event type the service records. */
export type EventType = (typeof EVENT_TYPES)[number];

/** Where a change came from (audience events carry it in `data.source`). */
export type EventSource = 'api' | 'dashboard' | 'hosted_page' | 'one_click';

/** A recorded event: what webhook delivery sends as `{type, created_at, data}`. */
export interface EventRecord {
  readonly id: string;
  readonly teamId: string;
  readonly type: EventType;
  readonly createdAt: string;
  readonly data: Record<string, unknown>;
}

/**
 * The item of an event, for a caller to put in the same transaction as the state change it
 * describes (so a change and its event are never separated by a crash), or to store after a
 * change that keeps the event's id and time (`at`) to write it again (handOverEvent,
 * storeEventOnce).
 */
export const eventItem = (
  deps: Deps,
  teamId: string,
  type: EventType,
  data: Record<string, unknown>,
  at?: { readonly id: string; readonly createdAt: string },
) => {
  const id = at?.id ?? deps.ids.next();
  const createdAt = at?.createdAt ?? new Date(deps.clock.now()).toISOString();
  const record: EventRecord = { id, teamId, type, createdAt, data };
  const stored = {
    ...keys.event.item(teamId, id),
    type: 'event',
    id,
    team_id: teamId,
    event_type: type,
    created_at: createdAt,
    data,
    // An email's events expire with it under the email retention.
    ...(type.startsWith('email.') ? emailExpiry(deps, Date.parse(createdAt)) : {}),
  };
  return {
    record,
    item: {
      ...stored,
      // Webhook fan-out clears these once the event is handed to its endpoints; the event sweeper
      // re-queues what is still marked (a process that died between storing and queuing).
      dispatched: false,
      ...keys.event.undispatched(teamId, id, createdAt),
    },
    /** The item stored after the event was queued whole (handOverEvent): nothing left to mark. */
    handedOver: { ...stored, dispatched: true },
  };
};

/** Records one event on its own (when no other write accompanies it). */
export const recordEvent = async (
  deps: Deps,
  teamId: string,
  type: EventType,
  data: Record<string, unknown>,
): Promise<EventRecord> => {
  const { record, item } = eventItem(deps, teamId, type, data);
  await putItem(deps, item);
  await publishEvents(deps, [record]);
  return record;
};

/**
 * Hands an event to webhook fan-out, whole (fan-out reads nothing back), then stores it as
 * handed over: one write of the event, outside the index of events not yet fanned out, and none
 * afterwards to take it out. For a state change written on its own whose message comes back
 * after a crash (pipeline/status-event.ts): a retry that finds the event missing stores it with
 * storeEventOnce. False when it was stored already.
 */
export const handOverEvent = async (deps: Deps, event: ReturnType<typeof eventItem>): Promise<boolean> => {
  await publishEvents(deps, [event.record], { whole: true });
  return putItem(deps, event.handedOver, { exists: false });
};

/**
 * Stores an event once, as a retry of a state change written on its own finds it missing: the
 * same event (same id) as the change's, never a second copy. Only the write that stored it queues
 * it for fan-out (a crash in between leaves it to the event sweeper, as for any event); fan-out
 * may then see it a second time, which creates no second delivery. False when it was stored
 * already.
 */
export const storeEventOnce = async (deps: Deps, event: ReturnType<typeof eventItem>): Promise<boolean> => {
  const stored = await putItem(deps, event.item, { exists: false });
  if (stored) await publishEvents(deps, [event.record]);
  return stored;
};

/**
 * Hands recorded events to the events queue for webhook fan-out (no-op while no queue is
 * configured); `whole`: with their time and data, for fan-out to deliver without reading them.
 */
export const publishEvents = async (
  deps: Deps,
  records: readonly EventRecord[],
  options: { readonly whole?: boolean } = {},
): Promise<void> => {
  if (!deps.config.EVENTS_QUEUE_URL || records.length === 0) return;
  await deps.queue.send(
    deps.config.EVENTS_QUEUE_URL,
    records.map((r) => ({
      body: {
        eventId: r.id,
        teamId: r.teamId,
        type: r.type,
        ...(options.whole ? { createdAt: r.createdAt, data: r.data } : {}),
      },
    })),
  );
};

/**
 * The events of one email, oldest first (the dashboard's timeline). Event ids are UUIDv7 and
 * come after the email's own id, so each of the team's event shards is read from the email's
 * creation on, at most `pages` pages per shard.
 */
export const emailTimeline = async (deps: Deps, teamId: string, emailId: string, pages = 4): Promise<EventRecord[]> => {
  const found: EventRecord[] = [];
  await Promise.all(
    Array.from({ length: keys.event.shards }, async (_, shard) => {
      let n = 0;
      for await (const page of queryPages(deps, {
        pk: keys.event.partition(teamId, shard),
        from: `${keys.event.prefix}${emailId}`,
        pageSize: 200,
      })) {
        for (const i of page.items) {
          if (i.data?.email_id === emailId)
            found.push({ id: i.id, teamId, type: i.event_type, createdAt: i.created_at, data: i.data });
        }
        if (++n >= pages) break;
      }
    }),
  );
  return found.sort((a, b) => (a.id < b.id ? -1 : 1));
};
