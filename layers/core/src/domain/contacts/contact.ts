import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem } from '../../table/ops.ts';
import { notFound } from '../../errors/api-error.ts';
import { isUuid } from '../../ports/ids.ts';
import type { EventSource } from '../events/record-event.ts';

/** A contact of a team (team-global; email unique per team, case-insensitively). */
export interface Contact {
  readonly id: string;
  readonly teamId: string;
  readonly email: string;
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly unsubscribed: boolean;
  readonly properties: Readonly<Record<string, string | number>>;
  readonly segmentIds: readonly string[];
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** True when a path identifier is an id rather than an email address. */
export const isId = (idOrEmail: string): boolean => isUuid(idOrEmail);

/** Item -> Contact. */
export const contactFromItem = (i: Record<string, any>): Contact => ({
  id: i.id,
  teamId: i.team_id,
  email: i.email,
  firstName: i.first_name ?? null,
  lastName: i.last_name ?? null,
  unsubscribed: i.unsubscribed === true,
  properties: i.properties ?? {},
  segmentIds: i.segment_ids ?? [],
  createdAt: i.created_at,
  updatedAt: i.updated_at ?? i.created_at,
});

/** Contact -> item attributes. */
export const contactItem = (c: Contact) => ({
  ...keys.contact.item(c.teamId, c.id),
  type: 'contact',
  id: c.id,
  team_id: c.teamId,
  email: c.email,
  first_name: c.firstName,
  last_name: c.lastName,
  unsubscribed: c.unsubscribed,
  properties: c.properties,
  segment_ids: c.segmentIds,
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});

/**
 * The `data` of contact.* events: spec §6's fields (the names null when unset), and the
 * reference's `audience_id`, the contact's first segment (an audience is a segment), when it is
 * in one.
 */
export const contactEventData = (c: Contact, source: EventSource) => ({
  id: c.id,
  ...(c.segmentIds.length > 0 ? { audience_id: c.segmentIds[0] } : {}),
  email: c.email,
  first_name: c.firstName,
  last_name: c.lastName,
  unsubscribed: c.unsubscribed,
  created_at: c.createdAt,
  updated_at: c.updatedAt,
  segment_ids: c.segmentIds,
  source,
});

/** Finds a contact by id or by email (case-insensitive); undefined when the team has none. */
export const findContact = async (deps: Deps, teamId: string, idOrEmail: string): Promise<Contact | undefined> => {
  let id = idOrEmail;
  if (!isId(idOrEmail)) {
    const guard = await getItem(deps, keys.contact.emailGuard(teamId, idOrEmail.trim()));
    if (!guard) return undefined;
    id = guard.contact_id;
  }
  const item = await getItem(deps, keys.contact.item(teamId, id));
  return item ? contactFromItem(item) : undefined;
};

/** Reads a contact by id or email; 404 when the team has no such contact. */
export const loadContact = async (deps: Deps, teamId: string, idOrEmail: string): Promise<Contact> => {
  const c = await findContact(deps, teamId, idOrEmail);
  if (!c) throw notFound('Contact');
  return c;
};
