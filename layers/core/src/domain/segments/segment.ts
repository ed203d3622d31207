import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem } from '../../table/ops.ts';
import { notFound } from '../../errors/api-error.ts';

/** A segment of contacts (audiences are the same thing under their older name). */
export interface Segment {
  readonly id: string;
  readonly name: string;
  readonly createdAt: string;
}

/** A segment from its stored item. */
export const segmentFromItem = (i: Record<string, any>): Segment => ({
  id: i.id,
  name: i.name,
  createdAt: i.created_at,
});

/** The wire segment (or audience). */
export const segmentView = (s: Segment, object: 'segment' | 'audience' = 'segment') => ({
  object,
  id: s.id,
  name: s.name,
  created_at: s.createdAt,
  // The reference still declares these on segments: the deprecated audience link and a filter (we have neither).
  ...(object === 'segment' ? { audience_id: null, filter: null } : {}),
});

/** Reads a segment; 404 for another team's. */
export const getSegment = async (deps: Deps, teamId: string, id: string): Promise<Segment> => {
  const item = await getItem(deps, keys.segment.item(teamId, id));
  if (!item) throw notFound('Segment');
  return segmentFromItem(item);
};
