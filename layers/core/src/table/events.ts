import type { Deps } from '../runtime/deps.ts';
import { keys } from './keys.ts';
import { getItem, updateItem } from './ops.ts';

/** A stored event record (what webhook delivery sends as `{type, created_at, data}`). */
export interface StoredEvent {
  readonly id: string;
  readonly teamId: string;
  readonly type: string;
  readonly createdAt: string;
  readonly data: Record<string, unknown>;
  readonly dispatched: boolean;
}

export const eventStore = {
  async get(deps: Deps, teamId: string, eventId: string): Promise<StoredEvent | undefined> {
    const i = await getItem(deps, keys.event.item(teamId, eventId));
    return i
      ? {
          id: i.id,
          teamId: i.team_id,
          type: i.event_type,
          createdAt: i.created_at,
          data: i.data ?? {},
          dispatched: i.dispatched === true,
        }
      : undefined;
  },

  /** Marks an event as fanned out to its endpoints. */
  async markDispatched(deps: Deps, teamId: string, eventId: string): Promise<void> {
    await updateItem(
      deps,
      keys.event.item(teamId, eventId),
      { set: { dispatched: true }, remove: keys.event.undispatchedAttributes },
      { exists: true },
    );
  },
};
