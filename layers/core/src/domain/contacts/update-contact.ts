import type { Deps } from '../../runtime/deps.ts';
import { transact } from '../../table/ops.ts';
import { ApiError } from '../../errors/api-error.ts';
import { eventItem, publishEvents, type EventSource } from '../events/record-event.ts';
import { contactEventData, contactItem, loadContact, type Contact } from './contact.ts';
import { checkPropertyValues, propertyTypes } from './contact-property.ts';
import { countMetrics } from '../metrics/count-metrics.ts';

/** What an update may change. */
export interface ContactChange {
  readonly first_name?: string | null | undefined;
  readonly last_name?: string | null | undefined;
  readonly unsubscribed?: boolean | undefined;
  readonly properties?: Readonly<Record<string, string | number | null>> | undefined;
}

/**
 * Updates a contact: null clears a name, properties merge (null removes a key). A write that
 * restates stored values changes nothing and emits nothing; otherwise contact.updated, plus
 * contact.unsubscribed / contact.resubscribed when the global opt-out flips.
 */
export const updateContact = async (
  deps: Deps,
  teamId: string,
  idOrEmail: string,
  change: ContactChange,
  source: EventSource,
  checked = false,
): Promise<Contact> => {
  const c = await loadContact(deps, teamId, idOrEmail);
  if (!checked) checkPropertyValues(await propertyTypes(deps, teamId), change.properties);
  const properties: Record<string, string | number> = { ...c.properties };
  for (const [k, value] of Object.entries(change.properties ?? {})) {
    if (value === null) delete properties[k];
    else properties[k] = value;
  }
  const next: Contact = {
    ...c,
    firstName: change.first_name !== undefined ? change.first_name : c.firstName,
    lastName: change.last_name !== undefined ? change.last_name : c.lastName,
    unsubscribed: change.unsubscribed ?? c.unsubscribed,
    properties,
  };
  const same =
    next.firstName === c.firstName &&
    next.lastName === c.lastName &&
    next.unsubscribed === c.unsubscribed &&
    JSON.stringify(Object.entries(next.properties).sort()) === JSON.stringify(Object.entries(c.properties).sort());
  if (same) return c;
  const updated: Contact = { ...next, updatedAt: new Date(deps.clock.now()).toISOString() };
  const events = [eventItem(deps, teamId, 'contact.updated', contactEventData(updated, source))];
  if (!c.unsubscribed && updated.unsubscribed)
    events.push(eventItem(deps, teamId, 'contact.unsubscribed', contactEventData(updated, source)));
  if (c.unsubscribed && !updated.unsubscribed)
    events.push(eventItem(deps, teamId, 'contact.resubscribed', contactEventData(updated, source)));
  const written = await transact(deps, [
    { put: contactItem(updated), when: { attr: 'updated_at', eq: c.updatedAt } },
    ...events.map((e) => ({ put: e.item })),
  ]);
  if (!written.ok)
    throw new ApiError(
      'conflict',
      `The contact ${c.email} changed while this update was applied; read it again and retry.`,
    );
  // The email metrics count a recipient's own unsubscribe (the link in the mail, the preference page), once: the write above held.
  if (!c.unsubscribed && updated.unsubscribed && (source === 'one_click' || source === 'hosted_page'))
    await countMetrics(deps, { team_id: teamId, id: c.id }, { unsubscribed: 1 });
  await publishEvents(
    deps,
    events.map((e) => e.record),
  );
  return updated;
};
