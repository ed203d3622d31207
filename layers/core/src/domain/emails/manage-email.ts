import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { batchWriteItems, getItem, queryAll, updateItem, type Change } from '../../table/ops.ts';
import { ApiError, notFound, validationError } from '../../errors/api-error.ts';
import type { Pagination } from '../../schemas/common.ts';
import { queryPage } from '../../table/query-page.ts';
import type { Page } from '../paging.ts';
import { parseScheduledAt } from './schedule-time.ts';
import { scheduleName } from './accept-emails.ts';
import { PRE_SEND_STATUSES, type EmailItem, type EmailStatus } from './email.ts';

/** Reads a team's email; another team's id answers 404. */
export const getEmail = async (deps: Deps, teamId: string, id: string): Promise<EmailItem> => {
  const item = await getItem(deps, keys.email.item(teamId, id));
  if (!item) throw notFound('Email');
  return item as EmailItem;
};

/** A page of the team's emails, newest first, merged from the listing shards. */
export const listEmails = async (deps: Deps, teamId: string, page: Pagination): Promise<Page<EmailItem>> => {
  const shards = await Promise.all(
    Array.from({ length: keys.email.listShards }, (_, shard) =>
      queryPage(deps, { ...keys.email.listPartition(teamId, shard), prefix: '' }, page),
    ),
  );
  const merged = shards.flatMap((s) => s.items).sort((a, b) => (a.id < b.id ? 1 : -1));
  const window = page.before ? merged.slice(Math.max(0, merged.length - page.limit)) : merged.slice(0, page.limit);
  return { items: window as EmailItem[], hasMore: merged.length > page.limit || shards.some((s) => s.hasMore) };
};

/** Moves an email on from one of `from`, or answers 409 naming where it is now. */
const transition = async (
  deps: Deps,
  e: EmailItem,
  from: readonly EmailStatus[],
  change: Change,
  what: string,
): Promise<void> => {
  const moved = await updateItem(deps, keys.email.item(e.team_id, e.id), change, { attr: 'status', in: from });
  if (!moved)
    throw new ApiError(
      'conflict',
      `This email can no longer be ${what}: it has already left (last event: ${(await getEmail(deps, e.team_id, e.id)).status}).`,
    );
};

/** Moves a scheduled email to a new time (PATCH /emails/{id}). */
export const rescheduleEmail = async (
  deps: Deps,
  teamId: string,
  id: string,
  scheduledAt: string,
): Promise<EmailItem> => {
  const e = await getEmail(deps, teamId, id);
  const at = parseScheduledAt(scheduledAt, deps.clock.now());
  if (e.status !== 'scheduled')
    throw new ApiError('conflict', `Only a scheduled email can be rescheduled; this one is ${e.status}.`);
  if (at === undefined) throw validationError('`scheduled_at` must be in the future.');
  const iso = new Date(at).toISOString();
  await transition(
    deps,
    e,
    ['scheduled'],
    {
      set: { scheduled_at: iso, updated_at: new Date(deps.clock.now()).toISOString(), ...keys.email.sendDue(id, iso) },
    },
    'rescheduled',
  );
  await deps.scheduler.schedule({
    name: scheduleName(id),
    at,
    queueUrl: deps.config.SEND_QUEUE_URL,
    body: { teamId, emailId: id },
  });
  return { ...e, scheduled_at: iso };
};

/** Cancels an email that has not left yet. */
export const cancelEmail = async (deps: Deps, teamId: string, id: string): Promise<EmailItem> => {
  const e = await getEmail(deps, teamId, id);
  if (e.status === 'canceled') return e;
  await transition(
    deps,
    e,
    PRE_SEND_STATUSES,
    {
      set: { status: 'canceled', updated_at: new Date(deps.clock.now()).toISOString() },
      remove: keys.email.waitingAttributes,
    },
    'canceled',
  );
  await deps.scheduler.cancel(scheduleName(id));
  return { ...e, status: 'canceled' };
};

/** Deletes an email record and its attachment chunks (our addition over the reference API). */
export const deleteEmail = async (deps: Deps, teamId: string, id: string): Promise<EmailItem> => {
  const e = await getEmail(deps, teamId, id);
  if (PRE_SEND_STATUSES.includes(e.status))
    await cancelEmail(deps, teamId, id).catch((error) => {
      if (!(error instanceof ApiError)) throw error;
    });
  const parts = await queryAll(deps, { pk: keys.email.item(teamId, id).pk, project: ['pk', 'sk'] });
  await batchWriteItems(deps, { delete: parts.map((k) => ({ pk: k.pk, sk: k.sk })) });
  return e;
};
