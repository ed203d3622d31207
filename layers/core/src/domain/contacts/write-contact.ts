import type { Deps } from '../../runtime/deps.ts';
import type { Team } from '../teams/team.ts';
import { limitsFor } from '../teams/plans.ts';
import { keys } from '../../table/keys.ts';
import { addToCounters, batchGetItems, getItem, transact, type Write } from '../../table/ops.ts';
import { ApiError, validationError } from '../../errors/api-error.ts';
import { eventItem, publishEvents, type EventSource } from '../events/record-event.ts';
import { contactEventData, contactItem, type Contact } from './contact.ts';
import { setTopicChoices } from '../topics/set-topic-choices.ts';
import type { CreateContactRequest } from '../../schemas/contacts.ts';

/**
 * Reserves `n` contact slots against the plan's cap (cloud mode), atomically; returns how many
 * were granted (fewer than asked when the cap is near). Self-hosted deployments only count.
 */
export const reserveContactSlots = async (deps: Deps, team: Team, n: number): Promise<number> => {
  if (n <= 0) return 0;
  const cap = limitsFor(deps.config.CLOUD, team.plan)?.contacts ?? null;
  const add = async (k: number) =>
    !!(await addToCounters(deps, keys.contact.counter(team.id), {
      add: { count: k },
      ...(cap !== null ? { ceilings: { count: cap } } : {}),
    }));
  if (await add(n)) return n;
  const counter = await getItem(deps, keys.contact.counter(team.id));
  const room = Math.max(0, (cap ?? 0) - Number(counter?.count ?? 0));
  for (let k = Math.min(room, n); k > 0; k--) if (await add(k)) return k;
  return 0;
};

/** Gives back reserved slots (a failed create, a delete). */
export const releaseContactSlots = async (deps: Deps, teamId: string, n: number): Promise<void> => {
  if (n <= 0) return;
  await addToCounters(deps, keys.contact.counter(teamId), { add: { count: -n } });
};

/** The plan refusal for a new contact past the cap. */
export const contactCapError = (team: Team): ApiError =>
  new ApiError(
    'plan_limit_reached',
    `The ${team.plan} plan allows ${limitsFor(true, team.plan)?.contacts} contacts; delete some or upgrade the plan. Existing contacts can still be updated.`,
  );

const segmentIdsOf = (input: CreateContactRequest): string[] => [
  ...new Set([
    ...(input.segments ?? []).map((s) => (typeof s === 'string' ? s : s.id)),
    ...(input.audience_id ? [input.audience_id] : []),
  ]),
];

/**
 * Creates a contact whose slot is already reserved: the email guard, the contact, its segment
 * memberships and the contact.created event in one transaction. Returns undefined when the email
 * is taken (the caller decides: conflict, skip or update).
 */
export const insertContact = async (
  deps: Deps,
  team: Team,
  input: CreateContactRequest,
  source: EventSource,
): Promise<Contact | undefined> => {
  const segmentIds = segmentIdsOf(input);
  if (segmentIds.length > 0) {
    const found = new Set(
      (
        await batchGetItems(
          deps,
          segmentIds.map((id) => keys.segment.item(team.id, id)),
        )
      ).map((s) => s.id as string),
    );
    const missing = segmentIds.find((id) => !found.has(id));
    if (missing) throw validationError(`\`segments\`: this team has no segment ${missing}.`);
  }
  const now = new Date(deps.clock.now()).toISOString();
  const properties = Object.fromEntries(
    Object.entries(input.properties ?? {}).filter(([, value]) => value !== null),
  ) as Record<string, string | number>;
  const contact: Contact = {
    id: deps.ids.next(),
    teamId: team.id,
    email: input.email,
    firstName: input.first_name ?? null,
    lastName: input.last_name ?? null,
    unsubscribed: input.unsubscribed ?? false,
    properties,
    segmentIds,
    createdAt: now,
    updatedAt: now,
  };
  const created = eventItem(deps, team.id, 'contact.created', contactEventData(contact, source));
  const written = await transact(deps, [
    {
      put: {
        ...keys.contact.emailGuard(team.id, input.email),
        type: 'contact_email',
        email: input.email.toLowerCase(),
        contact_id: contact.id,
      },
      when: { exists: false },
    },
    { put: contactItem(contact) },
    ...segmentIds.map((sid) => ({
      put: {
        ...keys.contact.membership(team.id, sid, contact.id),
        type: 'segment_member',
        segment_id: sid,
        contact_id: contact.id,
      },
    })),
    { put: created.item },
  ]);
  if (!written.ok) return undefined;
  await publishEvents(deps, [created.record]);
  if (input.topics?.length) await setTopicChoices(deps, team.id, contact, input.topics, source);
  return contact;
};

/** Transaction writes of one call at once (DynamoDB takes 100 writes and 4 MB per transaction). */
const TRANSACTION_WRITES = 100;

const TRANSACTION_BYTES = 3_000_000;

const TRANSACTIONS_AT_ONCE = 8;

/**
 * What `insertContacts` did with one input: made it (with `error` when its topic choices were
 * refused afterwards, a topic deleted meanwhile), found its email taken, or refused it unwritten.
 */
type Inserted =
  | { readonly contact: Contact; readonly error?: ApiError }
  | { readonly taken: true }
  | { readonly error: ApiError };

/**
 * Creates many contacts whose slots are already reserved, as `insertContact` does one: each
 * contact's email guard, item, memberships and contact.created event are written together, so a
 * contact never exists without its guard (the email stays unique per team) nor without its event.
 * Many contacts share a transaction (up to 100 writes each, 8 transactions at once); when one
 * guard's email was taken meanwhile, that contact is `taken` and the rest of its transaction is
 * written again without it. Segments and topics are checked once for the whole call; each
 * transaction's events are queued together as it lands.
 */
export const insertContacts = async (
  deps: Deps,
  team: Team,
  inputs: readonly CreateContactRequest[],
  source: EventSource,
): Promise<Inserted[]> => {
  const out: Inserted[] = new Array(inputs.length);
  const segmentIds = inputs.map(segmentIdsOf);
  const topicIds = [...new Set(inputs.flatMap((i) => (i.topics ?? []).map((t) => t.id)))];
  const [segments, topics] = await Promise.all([
    batchGetItems(
      deps,
      [...new Set(segmentIds.flat())].map((id) => keys.segment.item(team.id, id)),
    ),
    batchGetItems(
      deps,
      topicIds.map((id) => keys.topic.item(team.id, id)),
    ),
  ]);
  const knownSegments = new Set(segments.map((s) => s.id as string));
  const knownTopics = new Set(topics.map((t) => t.id as string));
  const now = new Date(deps.clock.now()).toISOString();
  const pending: {
    at: number;
    contact: Contact;
    writes: Write[];
    record: ReturnType<typeof eventItem>['record'];
    bytes: number;
  }[] = [];
  inputs.forEach((input, at) => {
    const missingSegment = segmentIds[at]!.find((id) => !knownSegments.has(id));
    if (missingSegment) {
      out[at] = { error: validationError(`\`segments\`: this team has no segment ${missingSegment}.`) };
      return;
    }
    const missingTopic = (input.topics ?? []).find((t) => !knownTopics.has(t.id));
    if (missingTopic) {
      out[at] = { error: validationError(`\`topics\`: this team has no topic ${missingTopic.id}.`) };
      return;
    }
    const properties = Object.fromEntries(
      Object.entries(input.properties ?? {}).filter(([, value]) => value !== null),
    ) as Record<string, string | number>;
    const contact: Contact = {
      id: deps.ids.next(),
      teamId: team.id,
      email: input.email,
      firstName: input.first_name ?? null,
      lastName: input.last_name ?? null,
      unsubscribed: input.unsubscribed ?? false,
      properties,
      segmentIds: segmentIds[at]!,
      createdAt: now,
      updatedAt: now,
    };
    const created = eventItem(deps, team.id, 'contact.created', contactEventData(contact, source));
    const writes: Write[] = [
      {
        put: {
          ...keys.contact.emailGuard(team.id, input.email),
          type: 'contact_email',
          email: input.email.toLowerCase(),
          contact_id: contact.id,
        },
        when: { exists: false },
      },
      { put: contactItem(contact) },
      ...contact.segmentIds.map((sid) => ({
        put: {
          ...keys.contact.membership(team.id, sid, contact.id),
          type: 'segment_member',
          segment_id: sid,
          contact_id: contact.id,
        },
      })),
      { put: created.item },
    ];
    pending.push({
      at,
      contact,
      writes,
      record: created.record,
      bytes: JSON.stringify(writes).length + 256 * writes.length,
    });
  });
  // Contacts packed into transactions whole (a contact's writes are never split between two).
  const chunks: (typeof pending)[] = [];
  let current: typeof pending = [];
  let writes = 0;
  let bytes = 0;
  for (const p of pending) {
    if (current.length > 0 && (writes + p.writes.length > TRANSACTION_WRITES || bytes + p.bytes > TRANSACTION_BYTES)) {
      chunks.push(current);
      current = [];
      writes = 0;
      bytes = 0;
    }
    current.push(p);
    writes += p.writes.length;
    bytes += p.bytes;
  }
  if (current.length) chunks.push(current);
  const made: (typeof pending)[number][] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(TRANSACTIONS_AT_ONCE, chunks.length) }, async () => {
      while (next < chunks.length) {
        let chunk = chunks[next++]!;
        while (chunk.length > 0) {
          const written = await transact(
            deps,
            chunk.flatMap((p) => p.writes),
          );
          if (written.ok) {
            made.push(...chunk);
            // Queued as each transaction lands, while the next ones are written.
            await publishEvents(
              deps,
              chunk.map((p) => p.record),
            );
            break;
          }
          // The failed write is a guard: its contact's email is taken; the others go again without it.
          let first = 0;
          const lost = chunk.findIndex((p) => (first += p.writes.length) > written.failed);
          out[chunk[lost]!.at] = { taken: true };
          chunk = chunk.filter((_, k) => k !== lost);
        }
      }
    }),
  );
  for (const p of made) out[p.at] = { contact: p.contact };
  await Promise.all(
    made
      .filter((p) => inputs[p.at]!.topics?.length)
      .map(async (p) => {
        try {
          await setTopicChoices(deps, team.id, p.contact, inputs[p.at]!.topics!, source);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          out[p.at] = { contact: p.contact, error };
        }
      }),
  );
  return out;
};
