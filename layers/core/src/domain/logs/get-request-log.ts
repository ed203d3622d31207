import { live, logOf, type RequestLog } from './request-log.ts';
import type { Deps } from '../../runtime/deps.ts';
import { notFound } from '../../errors/api-error.ts';
import { keys } from '../../table/keys.ts';
import { getItem } from '../../table/ops.ts';

/** One request log of the team (another team's id is not found). */
export const getRequestLog = async (deps: Deps, teamId: string, id: string): Promise<RequestLog> => {
  const item = await getItem(deps, keys.requestLog.item(teamId, id), false);
  if (!live(deps, item)) throw notFound('Log');
  return logOf(item);
};
