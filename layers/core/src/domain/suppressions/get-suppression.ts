import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryAll } from '../../table/ops.ts';
import { notFound } from '../../errors/api-error.ts';
import { isUuid } from '../../ports/ids.ts';
import { getSuppressionByAddress, type Suppression } from './suppression-store.ts';

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
