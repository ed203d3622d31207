import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryAll, transact } from '../../table/ops.ts';
import { notFound } from '../../errors/api-error.ts';
import { isUuid } from '../../ports/ids.ts';
import { queryPage } from '../../table/query-page.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Page } from '../paging.ts';
import { eventItem, publishEvents, type EventSource } from '../events/record-event.ts';
import {
  getSuppressionByAddress,
  suppressionEventData,
  suppressionFromItem,
  type Suppression,
} from './suppression-store.ts';

/** The wire suppression. */
export const suppressionView = (s: Suppression) => ({
  object: 'suppression' as const,
  id: s.id,
  email: s.email,
  origin: s.origin,
  source_id: s.sourceId,
  created_at: s.createdAt,
});

/** Finds an entry by id or address; undefined when not listed. */
export const findSuppression = async (
  deps: Deps,
  teamId: string,
  idOrEmail: string,
): Promise<Suppression | undefined> => {
  if (!isUuid(idOrEmail)) return getSuppressionByAddress(deps, teamId, idOrEmail.trim());
  const [row] = await queryAll(deps, { ...keys.suppression.listPartition(teamId), prefix: idOrEmail });
  // The index may lag a fresh write: confirm on the table itself.
  return row ? getSuppressionByAddress(deps, teamId, row.email) : undefined;
};

/** Reads an entry; 404 when not listed. */
export const getSuppression = async (deps: Deps, teamId: string, idOrEmail: string): Promise<Suppression> => {
  const s = await findSuppression(deps, teamId, idOrEmail);
  if (!s) throw notFound('Suppression');
  return s;
};

/** A page of the list, newest first, optionally of one origin. */
export const listSuppressions = async (
  deps: Deps,
  teamId: string,
  page: Pagination,
  origin?: string,
): Promise<Page<Suppression>> => {
  const { items, hasMore } = await queryPage(
    deps,
    {
      ...keys.suppression.listPartition(teamId),
      prefix: '',
      ...(origin ? { filter: { attr: 'origin', eq: origin } } : {}),
    },
    page,
  );
  return { items: items.map(suppressionFromItem), hasMore };
};

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
