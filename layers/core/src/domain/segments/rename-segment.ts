import { getSegment, type Segment } from './segment.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { updateItem } from '../../table/ops.ts';

/** Renames a segment. */
export const renameSegment = async (deps: Deps, teamId: string, id: string, name: string): Promise<Segment> => {
  const s = await getSegment(deps, teamId, id);
  await updateItem(deps, keys.segment.item(teamId, id), { set: { name } });
  return { ...s, name };
};
