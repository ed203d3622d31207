import { getSuppression } from './get-suppression.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { transact } from '../../table/ops.ts';
import { eventItem, publishEvents, type EventSource } from '../events/record-event.ts';
import { suppressionEventData, type Suppression } from './suppression-store.ts';

/** Takes an address off the list and records suppression.removed. */
export const removeSuppression = async (
  deps: Deps,
  teamId: string,
  idOrEmail: string,
  source: EventSource = 'api',
): Promise<Suppression> => {
  const s = await getSuppression(deps, teamId, idOrEmail);
  const e = eventItem(deps, teamId, 'suppression.removed', { ...suppressionEventData(s), source });
  await transact(deps, [{ delete: keys.suppression.byAddress(teamId, s.email) }, { put: e.item }]);
  await publishEvents(deps, [e.record]);
  return s;
};
