import { insertContact, contactCapError, releaseContactSlots, reserveContactSlots } from './write-contact.ts';
import type { Deps } from '../../runtime/deps.ts';
import type { Team } from '../teams/team.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { EventSource } from '../events/record-event.ts';
import { findContact, type Contact } from './contact.ts';
import { checkPropertyValues, propertyTypes } from './contact-property.ts';
import type { CreateContactRequest } from '../../schemas/contacts.ts';

/** POST /contacts: a new contact; its email must be new to the team; past the plan cap, 403. */
export const createContact = async (
  deps: Deps,
  team: Team,
  input: CreateContactRequest,
  source: EventSource = 'api',
): Promise<Contact> => {
  checkPropertyValues(await propertyTypes(deps, team.id), input.properties);
  if ((await reserveContactSlots(deps, team, 1)) === 0) {
    // At the cap, an email the team already has is still a conflict: it would not add a contact.
    if (await findContact(deps, team.id, input.email)) throw taken(input.email);
    throw contactCapError(team);
  }
  let contact: Contact | undefined;
  try {
    contact = await insertContact(deps, team, input, source);
  } catch (error) {
    await releaseContactSlots(deps, team.id, 1);
    throw error;
  }
  if (!contact) {
    await releaseContactSlots(deps, team.id, 1);
    throw taken(input.email);
  }
  return contact;
};

const taken = (email: string) =>
  new ApiError(
    'conflict',
    `A contact with the email ${email} already exists in this team; update it with PATCH /contacts/{id or email}.`,
  );
