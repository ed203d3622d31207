import DataLoader from 'dataloader';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { batchGetItems, getItem, transact } from '../../table/ops.ts';
import { eventItem, publishEvents, type EventSource } from '../events/record-event.ts';

/** Why an address is on the suppression list. */
export type SuppressionOrigin = 'bounce' | 'complaint' | 'unsubscribe' | 'manual';

/** An entry of the suppression list. */
export interface Suppression {
  readonly id: string;
  readonly teamId: string;
  readonly email: string;
  readonly origin: SuppressionOrigin;
  /** Who made the change for audience events; null for bounce and complaint rows. */
  readonly source: EventSource | null;
  /** The email (bounce, complaint) or contact (unsubscribe) that caused it. */
  readonly sourceId: string | null;
  readonly createdAt: string;
}

/** Item -> Suppression. */
export const suppressionFromItem = (i: Record<string, any>): Suppression => ({
  id: i.id,
  teamId: i.team_id,
  email: i.email,
  origin: i.origin,
  source: i.source ?? null,
  sourceId: i.source_id ?? null,
  createdAt: i.created_at,
});

/** The `data` of suppression.added / suppression.removed events. */
export const suppressionEventData = (s: Suppression) => ({
  id: s.id,
  email: s.email,
  origin: s.origin,
  source: s.source,
  created_at: s.createdAt,
});

/**
 * Puts an address on the team's suppression list and records suppression.added, in one
 * transaction. An address already listed keeps its entry (no second event).
 */
export const addSuppression = async (
  deps: Deps,
  input: {
    teamId: string;
    email: string;
    origin: SuppressionOrigin;
    source: EventSource | null;
    sourceId?: string | null;
  },
): Promise<{ suppression: Suppression; created: boolean }> => {
  const email = input.email.trim().toLowerCase();
  const id = deps.ids.next();
  const item = {
    ...keys.suppression.byAddress(input.teamId, email),
    ...keys.suppression.listing(input.teamId, id),
    type: 'suppression',
    id,
    team_id: input.teamId,
    email,
    origin: input.origin,
    source: input.origin === 'bounce' || input.origin === 'complaint' ? null : input.source,
    source_id: input.sourceId ?? null,
    created_at: new Date(deps.clock.now()).toISOString(),
  };
  const suppression = suppressionFromItem(item);
  const event = eventItem(deps, input.teamId, 'suppression.added', suppressionEventData(suppression));
  const written = await transact(deps, [{ put: item, when: { exists: false } }, { put: event.item }]);
  if (!written.ok) {
    const existing = await getSuppressionByAddress(deps, input.teamId, email);
    if (existing) return { suppression: existing, created: false };
    throw new Error(`suppression of ${email}: the entry was there at write time and gone at read time; retry`);
  }
  await publishEvents(deps, [event.record]);
  return { suppression, created: true };
};

/** Reads the entry for an address, if listed. */
export const getSuppressionByAddress = async (
  deps: Deps,
  teamId: string,
  email: string,
): Promise<Suppression | undefined> => {
  const item = await getItem(deps, keys.suppression.byAddress(teamId, email));
  return item ? suppressionFromItem(item) : undefined;
};

/** What a send's suppression check reads: the entry's origin per lower-cased address, or undefined (not listed). */
export type SuppressionLookup = (emails: readonly string[]) => Promise<ReadonlyMap<string, SuppressionOrigin>>;

/**
 * A suppression lookup that gathers the addresses asked for in the same tick into one batch read
 * (100 addresses a request): the items of a batch send are checked together, not one read each.
 */
export const suppressionLookup = (deps: Deps, teamId: string): SuppressionLookup => {
  const loader = new DataLoader<string, SuppressionOrigin | undefined>(
    async (addresses) => {
      const rows = await batchGetItems(
        deps,
        addresses.map((e) => keys.suppression.byAddress(teamId, e)),
      );
      const origins = new Map(rows.map((r) => [r.email as string, r.origin as SuppressionOrigin]));
      return addresses.map((a) => origins.get(a));
    },
    { maxBatchSize: 100 },
  );
  return async (emails) => {
    const unique = [...new Set(emails.map((e) => e.toLowerCase()))];
    const origins = await loader.loadMany(unique);
    const found = new Map<string, SuppressionOrigin>();
    unique.forEach((address, i) => {
      const origin = origins[i];
      if (origin instanceof Error) throw origin;
      if (origin) found.set(address, origin);
    });
    return found;
  };
};

/**
 * The addresses among `emails` that a send must not reach (spec §2 Suppression): bounce,
 * complaint and manual entries always count; unsubscribe entries only when the send has a topic.
 * One batch read per 100 addresses; `lookup` shares the reads of one call's sends.
 */
export const findSuppressed = async (
  deps: Deps,
  teamId: string,
  emails: readonly string[],
  options: { withTopic: boolean; lookup?: SuppressionLookup },
): Promise<Map<string, SuppressionOrigin>> => {
  const origins = await (options.lookup ?? suppressionLookup(deps, teamId))(emails);
  return new Map([...origins].filter(([, origin]) => origin !== 'unsubscribe' || options.withTopic));
};
