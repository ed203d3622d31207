import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { putItem } from '../../table/ops.ts';
import { notFound } from '../../errors/api-error.ts';
import { findContact } from '../contacts/contact.ts';
import { checkPayload, findEventDefinition } from './event-definition.ts';
import { queueEvent } from './engine.ts';

/** How long a sent event is kept for the runs it starts or resumes to read (and for inspection): 30 days. */
const SENT_EVENT_RETENTION_SECONDS = 30 * 86_400;

/** A custom event that happened to a contact, as the engine reads it. */
export interface SentEvent {
  readonly id: string;
  readonly teamId: string;
  readonly name: string;
  readonly contactId: string;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly at: string;
}

/**
 * Accepts a custom event for one of the team's contacts (by id or address): the payload is
 * checked against the event's schema when the team defined one, and the event is kept for the
 * automations it starts and the runs waiting on it, and queued for the engine. Sending an event nobody defined is allowed:
 * a definition only adds the schema.
 */
export const acceptEvent = async (
  deps: Deps,
  teamId: string,
  input: {
    event: string;
    contact_id?: string | undefined;
    email?: string | undefined;
    payload?: Record<string, unknown> | undefined;
  },
): Promise<SentEvent> => {
  const who = input.contact_id ?? input.email ?? '';
  const contact = await findContact(deps, teamId, who);
  if (!contact)
    throw notFound(`Contact ${who} (an event happens to one of your contacts: create it with POST /contacts first)`);
  const payload = input.payload ?? {};
  checkPayload(await findEventDefinition(deps, teamId, input.event), payload);
  const now = deps.clock.now();
  const sent: SentEvent = {
    id: deps.ids.next(),
    teamId,
    name: input.event,
    contactId: contact.id,
    payload,
    at: new Date(now).toISOString(),
  };
  await putItem(deps, {
    ...keys.automation.sentEvent(teamId, sent.contactId, sent.name, sent.at, sent.id),
    type: 'sent_event',
    id: sent.id,
    team_id: teamId,
    name: sent.name,
    contact_id: sent.contactId,
    payload,
    at: sent.at,
    ttl: Math.floor(now / 1000) + SENT_EVENT_RETENTION_SECONDS,
  });
  await queueEvent(deps, sent);
  return sent;
};
