import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { teamFromItem, type Team } from './team.ts';
import type { PlanName } from './plans.ts';

/** Creates a team on the free plan (the operator may change it). */
export const createTeam = async (deps: Deps, input: { name: string; plan?: PlanName }): Promise<Team> => {
  const id = deps.ids.next();
  const item = {
    ...keys.team.item(id),
    ...keys.team.listing(id),
    type: 'team',
    id,
    name: input.name,
    plan: input.plan ?? 'free',
    status: 'active',
    overage_enabled: false,
    created_at: new Date(deps.clock.now()).toISOString(),
  };
  await deps.db.send(new PutCommand({ TableName: deps.table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
  return teamFromItem(item);
};

/** Lists every team (operator only). */
export const listTeams = async (deps: Deps): Promise<Team[]> => {
  const teams: Team[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await deps.db.send(new QueryCommand({
      TableName: deps.table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.team.listPartition() },
      ExclusiveStartKey: start,
    }));
    teams.push(...(out.Items ?? []).map(teamFromItem));
    start = out.LastEvaluatedKey;
  } while (start);
  return teams;
};

/** Changes a team's plan, status or overage switch; throws when the team does not exist. */
export const updateTeam = async (deps: Deps, teamId: string, change: { plan?: PlanName; status?: Team['status']; overageEnabled?: boolean; paymentBlocked?: boolean }): Promise<Team> => {
  const sets: string[] = [];
  const values: Record<string, unknown> = {};
  const names: Record<string, string> = {};
  if (change.plan) { sets.push('#plan = :plan'); values[':plan'] = change.plan; names['#plan'] = 'plan'; }
  if (change.status) { sets.push('#status = :status'); values[':status'] = change.status; names['#status'] = 'status'; }
  if (change.overageEnabled !== undefined) { sets.push('overage_enabled = :overage'); values[':overage'] = change.overageEnabled; }
  if (change.paymentBlocked !== undefined) { sets.push('payment_blocked = :blocked'); values[':blocked'] = change.paymentBlocked; }
  const out = await deps.db.send(new UpdateCommand({
    TableName: deps.table,
    Key: keys.team.item(teamId),
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: 'attribute_exists(pk)',
    ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
    ExpressionAttributeValues: values,
    ReturnValues: 'ALL_NEW',
  }));
  return teamFromItem(out.Attributes ?? {});
};
