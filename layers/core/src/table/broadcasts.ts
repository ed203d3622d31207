import type { Deps } from '../runtime/deps.ts';
import { keys, shardOf } from './keys.ts';
import { TABLE } from './definition.ts';
import {
  batchGetItems,
  batchWriteItems,
  countItems,
  deleteItem,
  getItem,
  putItem,
  queryAll,
  queryPages,
  transact,
  updateItem,
  type Condition,
  type Item,
  type Write,
} from './ops.ts';
import { queryPage } from './query-page.ts';
import type { Page, PageRequest } from '../domain/paging.ts';
import type { Subscription } from '../domain/topics/vocabulary.ts';

/** The stored broadcast (attribute names as stored). */
export interface BroadcastItem {
  readonly id: string;
  readonly team_id: string;
  readonly name: string | null;
  readonly segment_id: string;
  readonly topic_id: string | null;
  readonly from: string;
  readonly subject: string;
  readonly reply_to: string[] | null;
  readonly preview_text: string | null;
  readonly html: string | null;
  readonly text: string | null;
  /** Variables given with a template the broadcast was made from (its own copy). */
  readonly template_variables: Record<string, string | number> | null;
  /** draft, or sending once sent (reads derive scheduled / queued / sent), or canceled. */
  readonly status: 'draft' | 'sending' | 'canceled';
  readonly created_at: string;
  readonly updated_at: string;
  readonly scheduled_at: string | null;
  readonly sent_at: string | null;
  readonly canceled_at?: string | null;
  /** Set at send: the sending domain, its region, and the pacing plan. */
  readonly domain_id?: string;
  readonly domain_name?: string;
  readonly region?: string;
  readonly plan?: {
    starts_at: number;
    rate: number;
    daily_cap: number | null;
    used_on_start_day: number;
    period_left?: number | null;
    renews_at?: number | null;
    audience: number;
    finishes_at: number;
    days: number;
  };
  /** Counted by the send worker in the same transaction that records each send. */
  readonly sent_count?: number;
  readonly failed_count?: number;
  readonly canceled_count?: number;
  readonly last_sent_at?: string | null;
}

/** The fan-out's position in the segment and what it has counted so far. */
export interface Checkpoint {
  /** The last contact id handled (members are read in id order), null before the first page. */
  readonly cursor: string | null;
  /** Eligible recipients handled so far (the next one's slot index). */
  readonly index: number;
  readonly skipped: { unsubscribed: number; suppressed: number; opted_out: number };
  readonly done: boolean;
  readonly version: number;
}

export const NEW_CHECKPOINT: Checkpoint = {
  cursor: null,
  index: 0,
  skipped: { unsubscribed: 0, suppressed: 0, opted_out: 0 },
  done: false,
  version: 0,
};

const strip = <T>(i: Record<string, any>): T => {
  const { pk: _pk, sk: _sk, type: _t, ...rest } = i;
  return rest as T;
};

/** Reads a broadcast. */
export const readBroadcast = async (
  deps: Deps,
  teamId: string,
  id: string,
  consistent = true,
): Promise<BroadcastItem | undefined> => {
  const item = await getItem(deps, keys.broadcast.item(teamId, id), consistent);
  return item ? strip<BroadcastItem>(item) : undefined;
};

/**
 * Reads a broadcast with its fan-out checkpoint and its summed send counters in one round trip;
 * with `withCounts` false, without the counters (each is a read; the fan-out has no use for them).
 */
export const readBroadcastWithCheckpoint = async (
  deps: Deps,
  teamId: string,
  id: string,
  withCounts = true,
): Promise<{ broadcast?: BroadcastItem; checkpoint: Checkpoint }> => {
  const shards = withCounts
    ? Array.from({ length: keys.broadcast.counterShards }, (_, n) => keys.broadcast.counter(teamId, id, n))
    : [];
  const rows = await batchGetItems(deps, [
    keys.broadcast.item(teamId, id),
    keys.broadcast.checkpoint(teamId, id),
    ...shards,
  ]);
  const b = rows.find((r) => r.sk === keys.broadcast.item(teamId, id).sk);
  const c = rows.find((r) => r.sk === keys.broadcast.checkpoint(teamId, id).sk);
  const counts = rows.filter((r) => String(r.sk).startsWith('COUNT#'));
  const sum = (k: string) => counts.reduce((n, r) => n + Number(r[k] ?? 0), 0);
  const last =
    counts
      .map((r) => r.last_sent_at as string | undefined)
      .filter(Boolean)
      .sort()
      .at(-1) ?? null;
  return {
    ...(b
      ? {
          broadcast: {
            ...strip<BroadcastItem>(b),
            sent_count: sum('sent_count'),
            failed_count: sum('failed_count'),
            canceled_count: sum('canceled_count'),
            last_sent_at: last,
          },
        }
      : {}),
    checkpoint: c ? (c.checkpoint as Checkpoint) : NEW_CHECKPOINT,
  };
};

/** Writes a whole broadcast; with `whileStatus`, only if it is still in that status. Returns false when it was not. */
export const putBroadcast = (deps: Deps, b: BroadcastItem, whileStatus?: BroadcastItem['status']): Promise<boolean> =>
  putItem(
    deps,
    { ...keys.broadcast.item(b.team_id, b.id), type: 'broadcast', ...b },
    whileStatus ? { attr: 'status', eq: whileStatus } : undefined,
  );

/** Moves a sending (or scheduled) broadcast to canceled; false when it was not sending. */
export const markCanceled = async (
  deps: Deps,
  teamId: string,
  id: string,
  at: string,
  from: 'draft' | 'sending' = 'sending',
): Promise<boolean> =>
  (await updateItem(
    deps,
    keys.broadcast.item(teamId, id),
    { set: { status: 'canceled', canceled_at: at, updated_at: at } },
    { attr: 'status', eq: from },
  )) !== undefined;

/** Deletes a broadcast while it is a draft; false otherwise. */
export const deleteDraft = (deps: Deps, teamId: string, id: string): Promise<boolean> =>
  deleteItem(deps, keys.broadcast.item(teamId, id), { attr: 'status', eq: 'draft' });

/** A page of a team's broadcasts, newest first. */
export const pageBroadcasts = async (deps: Deps, teamId: string, page: PageRequest): Promise<Page<BroadcastItem>> => {
  const { items, hasMore } = await queryPage(
    deps,
    { pk: keys.broadcast.partition(teamId), prefix: keys.broadcast.prefix },
    page,
  );
  return { items: items.map((i) => strip<BroadcastItem>(i)), hasMore };
};

/** Advances the checkpoint from `previous`; false when another fan-out moved it first. */
export const advanceCheckpoint = (
  deps: Deps,
  teamId: string,
  id: string,
  previous: Checkpoint,
  next: Checkpoint,
): Promise<boolean> =>
  putItem(
    deps,
    { ...keys.broadcast.checkpoint(teamId, id), type: 'broadcast_checkpoint', checkpoint: next, version: next.version },
    previous.version === 0 ? { exists: false } : { attr: 'version', eq: previous.version },
  );

/** One page of a segment's member contact ids, in id order, after `cursor`. */
export const segmentMemberPage = async (
  deps: Deps,
  teamId: string,
  segmentId: string,
  cursor: string | null,
  limit: number,
): Promise<{ ids: string[]; more: boolean }> => {
  const range = {
    pk: keys.contact.partition(teamId),
    prefix: keys.contact.membershipPrefix(segmentId),
    project: ['contact_id'],
    pageSize: limit,
    consistent: true,
  };
  for await (const page of queryPages(
    deps,
    range,
    cursor ? { ...keys.contact.membership(teamId, segmentId, cursor) } : undefined,
  )) {
    return { ids: page.items.map((i) => i.contact_id as string), more: page.next !== undefined };
  }
  return { ids: [], more: false };
};

/** The topic choices of contacts for one topic: contact id -> subscription. */
export const topicChoicesOf = async (
  deps: Deps,
  teamId: string,
  topicId: string,
  contactIds: readonly string[],
): Promise<Map<string, Subscription>> =>
  new Map(
    (
      await batchGetItems(
        deps,
        contactIds.map((c) => keys.contact.topicChoice(teamId, c, topicId)),
      )
    ).map((i) => [i.contact_id as string, i.subscription]),
  );

/**
 * Writes each recipient's email item, only if absent (the ids are deterministic, so a resumed
 * page finds what a crashed one wrote). Up to 100 per transaction, the transactions side by side;
 * a transaction refused because some already exist falls back to one per item. The recipient's
 * row comes with its first outcome (`recipientStatusWrite`), in the email's own transaction.
 */
export const writeRecipientEmails = async (deps: Deps, emails: readonly Item[]): Promise<void> => {
  const chunks: Item[][] = [];
  let current: Item[] = [];
  let bytes = 0;
  for (const e of emails) {
    const size = JSON.stringify(e).length + 256;
    if (current.length === 100 || (bytes + size > 3_000_000 && current.length > 0)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(e);
    bytes += size;
  }
  if (current.length) chunks.push(current);
  await Promise.all(
    chunks.map(async (chunk) => {
      const written = await transact(
        deps,
        chunk.map((put): Write => ({ put, when: { exists: false } })),
      );
      if (written.ok) return;
      for (const e of chunk) await putItem(deps, e, { exists: false });
    }),
  );
};

/** Writes skip rows (unsubscribed, suppressed, opted out); rewriting one is harmless. */
export const writeSkips = (deps: Deps, rows: readonly Item[]): Promise<void> => batchWriteItems(deps, { put: rows });

/** Which recipient rows a list takes: those in one of `statuses`, or those a person opened or clicked. */
export type RecipientFilter = { readonly statuses: readonly string[] } | { readonly engaged: 'opened' | 'clicked' };

/** A page of a broadcast's recipient rows in contact-id order, filtered. */
export const recipientPage = async (
  deps: Deps,
  teamId: string,
  id: string,
  which: RecipientFilter,
  after: string | null,
  limit: number,
  email?: string,
): Promise<Page<Item>> => {
  const rows: Item[] = [];
  const kept: Condition =
    'statuses' in which
      ? { attr: 'status', in: which.statuses }
      : { attr: which.engaged === 'opened' ? 'open_count' : 'click_count', gt: 0 };
  const range = {
    pk: keys.broadcast.recipientPartition(teamId, id),
    prefix: keys.broadcast.recipientPrefix,
    filter: { and: [kept, ...(email ? [{ attr: 'email', eq: email.toLowerCase() }] : [])] },
    pageSize: 500,
  };
  for await (const page of queryPages(
    deps,
    range,
    after ? { ...keys.broadcast.recipient(teamId, id, after) } : undefined,
  )) {
    rows.push(...page.items);
    if (rows.length > limit) break;
  }
  return { items: rows.slice(0, limit), hasMore: rows.length > limit };
};

/** The broadcasts holding a region's broadcast capacity: id -> planned finish (epoch ms). */
export const regionLanes = async (
  deps: Deps,
  region: string,
): Promise<{ id: string; startsAt: number; finishesAt: number }[]> =>
  (await queryAll(deps, { pk: keys.broadcast.lanePartition(region), consistent: true })).map((i) => ({
    id: i.sk as string,
    startsAt: (i.starts_at as number | undefined) ?? 0,
    finishesAt: i.finishes_at as number,
  }));

/** Holds (or releases) a region lane for a broadcast, from its first planned send to `finishesAt`. */
export const holdLane = (
  deps: Deps,
  region: string,
  id: string,
  teamId: string,
  startsAt: number,
  finishesAt: number,
) =>
  putItem(deps, {
    ...keys.broadcast.lane(region, id),
    type: 'broadcast_lane',
    team_id: teamId,
    starts_at: startsAt,
    finishes_at: finishesAt,
    [TABLE.ttlAttribute]: Math.ceil(finishesAt / 1000) + 86_400,
  });
export const releaseLane = (deps: Deps, region: string, id: string) =>
  deleteItem(deps, keys.broadcast.lane(region, id));

/**
 * An operator pause of broadcasts (per team or per region), with its end when it has one; a
 * region pause may instead last until the region's platform rate recovers.
 */
export interface BroadcastPause {
  readonly scope: 'team' | 'region';
  readonly target: string;
  readonly until: number | null;
  readonly reason: string | null;
  readonly untilRecovered?: boolean;
}

/** The pauses that apply to a team sending in a region (expired ones excluded). */
export const activePauses = async (
  deps: Deps,
  teamId: string,
  region: string,
  now: number,
): Promise<BroadcastPause[]> =>
  (await batchGetItems(deps, [keys.broadcast.pauseTeam(teamId), keys.broadcast.pauseRegion(region)]))
    .map(
      (i) =>
        ({
          scope: i.scope,
          target: i.target,
          until: i.until ?? null,
          reason: i.reason ?? null,
          untilRecovered: i.until_recovered === true,
        }) as BroadcastPause,
    )
    .filter((p) => p.until === null || p.until > now);

/** Sets or clears an operator pause. */
export const setPause = async (
  deps: Deps,
  pause: BroadcastPause | { scope: 'team' | 'region'; target: string; clear: true },
): Promise<void> => {
  const key =
    pause.scope === 'team' ? keys.broadcast.pauseTeam(pause.target) : keys.broadcast.pauseRegion(pause.target);
  if ('clear' in pause) {
    await deleteItem(deps, key);
    return;
  }
  await putItem(deps, {
    ...key,
    type: 'broadcast_pause',
    scope: pause.scope,
    target: pause.target,
    until: pause.until,
    reason: pause.reason,
    until_recovered: pause.untilRecovered === true,
    ...(pause.until ? { [TABLE.ttlAttribute]: Math.ceil(pause.until / 1000) } : {}),
  });
};

type BroadcastEmailRef = { team_id: string; broadcast_id: string; contact_id: string };
/** A broadcast email as its recipient row needs it (the row is made from it at the first outcome). */
type BroadcastEmailRow = BroadcastEmailRef & { id: string; to: readonly string[] };

/** Counts one outcome on the broadcast's counter shard for the contact (a send also stamps last_sent_at). */
export const counterWrite = (e: BroadcastEmailRef, outcome: 'sent' | 'failed' | 'canceled', at: string): Write => ({
  update: keys.broadcast.counter(
    e.team_id,
    e.broadcast_id,
    shardOf(e.contact_id.replace(/-/g, ''), keys.broadcast.counterShards),
  ),
  change: { add: { [`${outcome}_count`]: 1 }, ...(outcome === 'sent' ? { set: { last_sent_at: at } } : {}) },
});

/**
 * Moves the recipient row to the email's status, making the row at the email's first outcome
 * (the fan-out writes rows for skipped recipients only).
 */
export const recipientStatusWrite = (e: BroadcastEmailRow, status: string, at: string): Write => ({
  update: keys.broadcast.recipient(e.team_id, e.broadcast_id, e.contact_id),
  change: {
    set: {
      type: 'broadcast_recipient',
      contact_id: e.contact_id,
      email: e.to[0]!.toLowerCase(),
      email_id: e.id,
      status,
      updated_at: at,
    },
  },
});

/**
 * The writes that go with a broadcast email's outcome, in the same transaction as the email's own
 * (so a send is counted exactly once): the broadcast's counter and the recipient row.
 */
export const outcomeWrites = (e: BroadcastEmailRow, outcome: 'sent' | 'failed' | 'canceled', at: string): Write[] => [
  counterWrite(e, outcome, at),
  recipientStatusWrite(e, outcome, at),
];

/** Cancels a broadcast email that has not reached the provider, with its outcome writes; false when it had moved on. */
export const cancelQueuedEmail = async (deps: Deps, e: BroadcastEmailRow, at: string): Promise<boolean> =>
  (
    await transact(deps, [
      {
        update: keys.email.item(e.team_id, e.id),
        change: { set: { status: 'canceled', updated_at: at }, remove: keys.email.dueAttributes },
        when: { attr: 'status', eq: 'queued' },
      },
      ...outcomeWrites(e, 'canceled', at),
    ])
  ).ok;

/** How many contacts a segment holds (a count-only query, paged). */
export const countSegmentMembers = (deps: Deps, teamId: string, segmentId: string): Promise<number> =>
  countItems(deps, { pk: keys.contact.partition(teamId), prefix: keys.contact.membershipPrefix(segmentId) });

/** A link of a broadcast's mail as stored: its clicks and how many recipients clicked it. */
export interface LinkClicks {
  readonly linkId: string;
  readonly url: string;
  readonly clicks: number;
  readonly uniqueClicks: number;
}

/** Counts a person's open of a broadcast email on its recipient row (nothing when the row is gone). */
export const countRecipientOpen = async (deps: Deps, e: BroadcastEmailRef): Promise<void> => {
  await updateItem(
    deps,
    keys.broadcast.recipient(e.team_id, e.broadcast_id, e.contact_id),
    { add: { open_count: 1 } },
    { exists: true },
  );
};

/**
 * Counts (delta 1) or takes back (delta -1, a click found to be a machine's) a click on a link of
 * a broadcast email: the recipient's clicks on that link, the link's clicks, the link's unique
 * clickers when the recipient's count leaves or reaches zero, and the recipient row's clicks.
 */
export const countRecipientClick = async (
  deps: Deps,
  e: BroadcastEmailRef,
  linkId: string,
  url: string,
  delta: 1 | -1,
): Promise<void> => {
  const row = await updateItem(
    deps,
    keys.broadcast.recipient(e.team_id, e.broadcast_id, e.contact_id),
    { add: { click_count: delta } },
    { exists: true },
  );
  if (!row) return;
  const mine = await updateItem(deps, keys.broadcast.recipientLink(e.team_id, e.broadcast_id, e.contact_id, linkId), {
    set: { type: 'broadcast_recipient_link', url },
    add: { clicks: delta },
  });
  const now = Number(mine?.clicks ?? 0);
  const unique = delta === 1 && now === 1 ? 1 : delta === -1 && now === 0 ? -1 : 0;
  await updateItem(deps, keys.broadcast.link(e.team_id, e.broadcast_id, linkId), {
    set: { type: 'broadcast_link', url, link_id: linkId },
    add: { clicks: delta, unique_clicks: unique },
  });
};

/** Every link of a broadcast's mail that has clicks (a broadcast carries a bounded set of links). */
export const linksOf = async (deps: Deps, teamId: string, id: string): Promise<LinkClicks[]> =>
  (await queryAll(deps, { pk: keys.broadcast.recipientPartition(teamId, id), prefix: keys.broadcast.linkPrefix }))
    .map((i) => ({
      linkId: i.link_id as string,
      url: i.url as string,
      clicks: Number(i.clicks ?? 0),
      uniqueClicks: Number(i.unique_clicks ?? 0),
    }))
    .filter((l) => l.clicks > 0);

/** One recipient's clicks per link (links with clicks only). */
export const recipientLinks = async (
  deps: Deps,
  teamId: string,
  id: string,
  contactId: string,
): Promise<{ url: string; clicks: number }[]> =>
  (
    await queryAll(deps, {
      pk: keys.broadcast.recipientPartition(teamId, id),
      prefix: keys.broadcast.recipientLinkPrefix(contactId),
    })
  )
    .map((i) => ({ url: i.url as string, clicks: Number(i.clicks ?? 0) }))
    .filter((l) => l.clicks > 0);
