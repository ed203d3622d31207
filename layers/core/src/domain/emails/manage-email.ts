import { BatchWriteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { ApiError, notFound, validationError } from '../../errors/api-error.ts';
import type { Pagination } from '../../schemas/common.ts';
import { queryPage } from '../../table/query-page.ts';
import { parseScheduledAt } from './schedule-time.ts';
import { scheduleName } from './accept-emails.ts';
import type { EmailItem } from './email.ts';

/** Reads a team's email; another team's id answers 404. */
export const getEmail = async (deps: Deps, teamId: string, id: string): Promise<EmailItem> => {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: keys.email.item(teamId, id), ConsistentRead: true }));
  if (!out.Item) throw notFound('Email');
  return out.Item as EmailItem;
};

/** A page of the team's emails, newest first, merged from the listing shards. */
export const listEmails = async (deps: Deps, teamId: string, page: Pagination): Promise<{ emails: EmailItem[]; hasMore: boolean }> => {
  const shards = await Promise.all(Array.from({ length: keys.email.listShards }, (_, shard) =>
    queryPage(deps, { pk: keys.email.listPartition(teamId, shard), prefix: '', index: 'gsi1' }, page)));
  const merged = shards.flatMap((s) => s.items).sort((a, b) => (a.id < b.id ? 1 : -1));
  const window = page.before ? merged.slice(Math.max(0, merged.length - page.limit)) : merged.slice(0, page.limit);
  return { emails: window as EmailItem[], hasMore: merged.length > page.limit || shards.some((s) => s.hasMore) };
};

const transition = async (deps: Deps, e: EmailItem, from: readonly string[], set: Record<string, unknown>, what: string): Promise<void> => {
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = {};
  const sets = Object.entries(set).map(([k, v], i) => { names[`#s${i}`] = k; values[`:s${i}`] = v; return `#s${i} = :s${i}`; });
  from.forEach((s, i) => (values[`:f${i}`] = s));
  try {
    await deps.db.send(new UpdateCommand({
      TableName: deps.table,
      Key: keys.email.item(e.team_id, e.id),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: `#status IN (${from.map((_, i) => `:f${i}`).join(', ')})`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }));
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new ApiError('conflict', `This email can no longer be ${what}: it has already left (last event: ${(await getEmail(deps, e.team_id, e.id)).status}).`);
    throw error;
  }
};

/** Moves a scheduled email to a new time (PATCH /emails/{id}). */
export const rescheduleEmail = async (deps: Deps, teamId: string, id: string, scheduledAt: string): Promise<EmailItem> => {
  const e = await getEmail(deps, teamId, id);
  const at = parseScheduledAt(scheduledAt, deps.clock.now());
  if (e.status !== 'scheduled') throw new ApiError('conflict', `Only a scheduled email can be rescheduled; this one is ${e.status}.`);
  if (at === undefined) throw validationError('`scheduled_at` must be in the future.');
  const iso = new Date(at).toISOString();
  await transition(deps, e, ['scheduled'], { scheduled_at: iso, updated_at: new Date(deps.clock.now()).toISOString() }, 'rescheduled');
  await deps.scheduler.schedule({ name: scheduleName(id), at, queueUrl: deps.config.SEND_QUEUE_URL, body: { teamId, emailId: id } });
  return { ...e, scheduled_at: iso };
};

/** Cancels an email that has not left yet. */
export const cancelEmail = async (deps: Deps, teamId: string, id: string): Promise<EmailItem> => {
  const e = await getEmail(deps, teamId, id);
  if (e.status === 'canceled') return e;
  await transition(deps, e, ['scheduled', 'queued', 'queued_quota', 'held'], { status: 'canceled', updated_at: new Date(deps.clock.now()).toISOString() }, 'canceled');
  await deps.db.send(new UpdateCommand({ TableName: deps.table, Key: keys.email.item(teamId, id), UpdateExpression: 'REMOVE gsi3pk, gsi3sk' }));
  await deps.scheduler.cancel(scheduleName(id));
  return { ...e, status: 'canceled' };
};

/** Deletes an email record and its attachment chunks (our addition over the reference API). */
export const deleteEmail = async (deps: Deps, teamId: string, id: string): Promise<EmailItem> => {
  const e = await getEmail(deps, teamId, id);
  if (['scheduled', 'queued', 'queued_quota', 'held'].includes(e.status)) await cancelEmail(deps, teamId, id).catch(() => undefined);
  const parts = await deps.db.send(new QueryCommand({
    TableName: deps.table,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.email.item(teamId, id).pk },
    ProjectionExpression: 'pk, sk',
  }));
  const items = parts.Items ?? [];
  for (let i = 0; i < items.length; i += 25) {
    await deps.db.send(new BatchWriteCommand({ RequestItems: { [deps.table]: items.slice(i, i + 25).map((k) => ({ DeleteRequest: { Key: { pk: k.pk, sk: k.sk } } })) } }));
  }
  return e;
};
