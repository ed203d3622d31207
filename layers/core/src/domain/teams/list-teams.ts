import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryAll } from '../../table/ops.ts';
import { teamFromItem, type Team } from './team.ts';

/** Lists every team (operator only). */
export const listTeams = async (deps: Deps): Promise<Team[]> =>
  (await queryAll(deps, { ...keys.team.listPartition() })).map(teamFromItem);
