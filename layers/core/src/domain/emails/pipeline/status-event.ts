import type { Deps } from '../../../runtime/deps.ts';
import { keys } from '../../../table/keys.ts';
import {
  getItem,
  transact,
  updateItem,
  type Change,
  type Condition,
  type Key,
  type Write,
} from '../../../table/ops.ts';
import { eventItem, handOverEvent, storeEventOnce, type EventType } from '../../events/record-event.ts';
import type { EmailItem } from '../email.ts';
import { emailEventData } from './email-event-data.ts';

/**
 * An email's status change (sent, delivered, bounced, failed...) and its event are two writes,
 * not one transaction (which bills every item twice, in each of its indexes too): the change
 * keeps the event's id on the email (`event_id`; the event's time is the change's `updated_at`),
 * then the event goes to fan-out and is stored (handOverEvent). A crash between the two leaves the change's message (the send job,
 * the provider's event) on its queue; when it comes back and finds the change made, it stores
 * the same event, once (settleStatusEvent).
 */
export interface StatusEventAt {
  readonly id: string;
  readonly createdAt: string;
}

/** A new status change's event id and time (`now`, the change's `updated_at`). */
export const statusEventAt = (deps: Deps, now: string): StatusEventAt => ({ id: deps.ids.next(), createdAt: now });

/** The event of an email's status change: the same item whether the change or its retry stores it. */
const statusEvent = (
  deps: Deps,
  e: EmailItem,
  type: EventType,
  at: StatusEventAt,
  extra: Record<string, unknown> | undefined,
) => eventItem(deps, e.team_id, type, { ...emailEventData(e), ...extra }, at);

/**
 * Writes an email's status change: one conditional update, or one transaction with the writes
 * that must count exactly once with it (a broadcast's counter and recipient row, the
 * deliverability counts); false when a condition does not hold. Then hands its event over.
 */
export const writeStatusChange = async (
  deps: Deps,
  e: EmailItem,
  update: { readonly key: Key; readonly change: Change; readonly when: Condition },
  event: { readonly type: EventType; readonly at: StatusEventAt; readonly extra?: Record<string, unknown> },
  also: readonly Write[],
): Promise<boolean> => {
  const change = { ...update.change, set: { ...update.change.set, event_id: event.at.id } };
  const written =
    also.length === 0
      ? (await updateItem(deps, update.key, change, update.when)) !== undefined
      : (await transact(deps, [{ update: update.key, change, when: update.when }, ...also])).ok;
  if (written) await handOverEvent(deps, statusEvent(deps, e, event.type, event.at, event.extra));
  return written;
};

/**
 * Stores the event of the email's last status change when a crash left it unwritten: `e` is the
 * email as read after that change, `type` and `extra` the change's. Nothing when it is stored
 * already (one eventually consistent read: a copy just stored and not yet seen is refused by
 * the store's condition), or for an email changed before events were stored this way.
 */
export const settleStatusEvent = async (
  deps: Deps,
  e: EmailItem,
  type: EventType,
  extra?: Record<string, unknown>,
): Promise<void> => {
  if (!e.event_id || (await getItem(deps, keys.event.item(e.team_id, e.event_id), false))) return;
  await storeEventOnce(deps, statusEvent(deps, e, type, { id: e.event_id, createdAt: e.updated_at }, extra));
};
