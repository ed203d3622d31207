import { releaseContactSlots } from './write-contact.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryAll, transact, type Write } from '../../table/ops.ts';
import { eventItem, publishEvents, type EventSource } from '../events/record-event.ts';
import { ERASED } from './erase-history.ts';
import { contactEventData, loadContact, type Contact } from './contact.ts';

/** Deletes a contact with its guard, memberships and choices, and records contact.deleted. */
export const deleteContact = async (
  deps: Deps,
  teamId: string,
  idOrEmail: string,
  source: EventSource = 'api',
  erased = false,
): Promise<Contact> => {
  const c = await loadContact(deps, teamId, idOrEmail);
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
    { delete: keys.contact.item(teamId, c.id) },
    { delete: keys.contact.emailGuard(teamId, c.email) },
    { put: deleted.item },
    ...extras.map((key) => ({ delete: key })),
  ];
  for (let i = 0; i < writes.length; i += 100) await transact(deps, writes.slice(i, i + 100));
  await releaseContactSlots(deps, teamId, 1);
  await publishEvents(deps, [deleted.record]);
  return c;
};
