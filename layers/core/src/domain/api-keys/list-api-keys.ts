import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryAll } from '../../table/ops.ts';
import { apiKeyFromItem, type ApiKey } from './api-key.ts';

/** The keys of a team, revoked ones included. */
export const listApiKeys = async (deps: Deps, teamId: string): Promise<(ApiKey & { hash: string })[]> => {
  const items = await queryAll(deps, { ...keys.apiKey.listPartition(teamId) });
  return items.map((i) => ({ ...apiKeyFromItem(i), hash: i.hash as string }));
};
