import { releaseContactSlots } from './write-contact.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryAll, transact, type Write } from '../../table/ops.ts';
import { eventItem, publishEvents, type EventSource } from '../events/record-event.ts';
import { ERASED } from './erase-history.ts';
import { contactEventData, loadContact, type Contact } from './contact.ts';
import { notFound } from '../../errors/api-error.ts';

/** Deletes a contact with its guard, memberships and choices, and records contact.deleted; 404 when there is none (or it went meanwhile). */
export const deleteContact = async (
  deps: Deps,
  teamId: string,
  idOrEmail: string,
  source: EventSource = 'api',
  erased = false,
): Promise<Contact> => {
  const c = await loadContact(deps, teamId, idOrEmail);
  if (!(await removeContact(deps, teamId, c, source, erased))) throw notFound('Contact');
  return c;
};

/**
 * Removes a contact read before: its item, guard, memberships and choices, and records
 * contact.deleted. False when the contact was gone by the time of the write (another request
 * removed it): nothing is written, no slot given back, no event recorded, so two removals of
 * one contact at the same time count it once.
 */
export const removeContact = async (
  deps: Deps,
  teamId: string,
  c: Contact,
  source: EventSource,
  erased: boolean,
): Promise<boolean> => {
  const extras = [
    ...c.segmentIds.map((sid) => keys.contact.membership(teamId, sid, c.id)),
    ...(await queryAll(deps, { pk: keys.contact.partition(teamId), prefix: keys.contact.topicChoicePrefix(c.id) })).map(
      (i) => ({ pk: i.pk as string, sk: i.sk as string }),
    ),
  ];
  const deleted = eventItem(
    deps,
    teamId,
    'contact.deleted',
    contactEventData(erased ? { ...c, email: ERASED, firstName: null, lastName: null } : c, source),
  );
  const writes: Write[] = [
    { delete: keys.contact.item(teamId, c.id), when: { exists: true } },
    { delete: keys.contact.emailGuard(teamId, c.email) },
    { put: deleted.item },
    ...extras.map((key) => ({ delete: key })),
  ];
  // The first transaction holds the contact's item and event: a contact already gone stops here.
  if (!(await transact(deps, writes.slice(0, 100))).ok) return false;
  for (let i = 100; i < writes.length; i += 100) await transact(deps, writes.slice(i, i + 100));
  await releaseContactSlots(deps, teamId, 1);
  await publishEvents(deps, [deleted.record]);
  return true;
};
