import { keys } from '@mailstack/core/table/keys';
import { contactItem, type Contact } from '@mailstack/core/domain/contacts/contact';
import { testDeps } from './local.ts';

/**
 * Loads many plain contacts into one segment straight into the table (the items insertContact
 * writes, without the per-contact transaction and event), for tests and benches whose subject is
 * what happens after: the API's batch create is exercised by its own tests.
 */
export const loadSegmentContacts = async (
  teamId: string,
  segmentId: string,
  people: readonly { email: string; first_name?: string }[],
): Promise<string[]> => {
  const d = testDeps();
  const now = new Date().toISOString();
  const contacts: Contact[] = people.map((p) => ({
    id: d.ids.next(),
    teamId,
    email: p.email,
    firstName: p.first_name ?? null,
    lastName: null,
    unsubscribed: false,
    properties: {},
    segmentIds: [segmentId],
    createdAt: now,
    updatedAt: now,
  }));
  const items = contacts.flatMap((c) => [
    contactItem(c),
    {
      ...keys.contact.emailGuard(teamId, c.email),
      type: 'contact_email',
      email: c.email.toLowerCase(),
      contact_id: c.id,
    },
    {
      ...keys.contact.membership(teamId, segmentId, c.id),
      type: 'segment_member',
      segment_id: segmentId,
      contact_id: c.id,
    },
  ]);
  const chunks = Array.from({ length: Math.ceil(items.length / 25) }, (_, i) => items.slice(i * 25, (i + 1) * 25));
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < chunks.length) {
        let request: Record<string, any> | undefined = {
          [d.table]: chunks[next++]!.map((Item) => ({ PutRequest: { Item } })),
        };
        while (request && Object.keys(request).length > 0)
          request = (await d.tableStore.batchWrite({ RequestItems: request })).UnprocessedItems;
      }
    }),
  );
  return contacts.map((c) => c.id);
};
