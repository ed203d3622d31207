import { segmentFromItem, type Segment } from './segment.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { putItem } from '../../table/ops.ts';

/** Creates a segment. */
export const createSegment = async (deps: Deps, teamId: string, name: string): Promise<Segment> => {
  const id = deps.ids.next();
  const item = {
    ...keys.segment.item(teamId, id),
    type: 'segment',
    id,
    team_id: teamId,
    name,
    created_at: new Date(deps.clock.now()).toISOString(),
  };
  await putItem(deps, item);
  return segmentFromItem(item);
};
