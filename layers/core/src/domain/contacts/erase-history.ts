import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, queryAll, queryPages, transact, updateItem, type Item, type Range } from '../../table/ops.ts';
import { bareAddress } from '../emails/rules/addresses.ts';
import { eventItem, publishEvents } from '../events/record-event.ts';
import type { Contact } from './contact.ts';
import { KEEP, rewriteJson } from '../rewrite-json.ts';
import { webhookStore } from '../../table/webhooks.ts';
import { bodiesOf, storedBodies } from '../logs/request-log.ts';

/** What a scrubbed address reads as (spec: "[erased]"). */
export const ERASED = '[erased]';
/** Pages of history one run of the worker rewrites before handing the job back to the queue. */
const PAGES_PER_RUN = 20;
const PAGE_SIZE = 100;

/** The message on the erase queue. */
export interface EraseJobRef {
  readonly teamId: string;
  readonly jobId: string;
}

const mentions = (value: unknown, addresses: ReadonlySet<string>): boolean =>
  JSON.stringify(value ?? '')
    .toLowerCase()
    .split(/[\s"<>,]+/)
    .some((t) => addresses.has(t));

const scrub = (value: unknown, addresses: ReadonlySet<string>): unknown =>
  rewriteJson(value, (v) => (typeof v !== 'string' ? KEEP : addresses.has(bareAddress(v).toLowerCase()) ? ERASED : v));

/**
 * Where a team's history lives: its email listing shards, its event shards, the delivery log of
 * each webhook endpoint the team had when the erase began (each delivery keeps the body it
 * sends, so a replay would send the address again), then its request logs (GET /logs).
 */
const historyOf = (teamId: string, webhookIds: readonly string[]): Range[] => [
  ...Array.from({ length: keys.email.listShards }, (_, s) => ({
    ...keys.email.listPartition(teamId, s),
    pageSize: PAGE_SIZE,
  })),
  ...Array.from({ length: keys.event.shards }, (_, s) => ({
    pk: keys.event.partition(teamId, s),
    pageSize: PAGE_SIZE,
  })),
  ...webhookIds.flatMap((w) =>
    Array.from({ length: keys.webhook.logShards }, (_, s) => ({
      pk: keys.webhook.logPartition(teamId, w, s),
      prefix: keys.webhook.deliveryPrefix,
      pageSize: PAGE_SIZE,
    })),
  ),
  ...Array.from({ length: keys.requestLog.shards }, (_, s) => ({
    pk: keys.requestLog.partition(teamId, s),
    prefix: keys.requestLog.prefix,
    pageSize: PAGE_SIZE,
  })),
];

/**
 * Records an erase of the contacts' addresses from the team's email history, event payloads and
 * webhook delivery logs and hands it to the erase worker; the API answers without waiting. The job and its
 * running-jobs marker are written together, so a lost queue message is found again.
 */
export const startErase = async (
  deps: Deps,
  teamId: string,
  contacts: readonly Contact[],
): Promise<string | undefined> => {
  if (contacts.length === 0) return undefined;
  const jobId = deps.ids.next();
  const now = new Date(deps.clock.now()).toISOString();
  const webhooks = (await webhookStore.all(deps, teamId)).map((w) => w.id);
  await transact(deps, [
    {
      put: {
        ...keys.eraseJob.item(teamId, jobId),
        type: 'erase_job',
        id: jobId,
        team_id: teamId,
        status: 'running',
        created_at: now,
        updated_at: now,
        contacts: contacts.map((c) => ({ id: c.id, created_at: c.createdAt })),
        addresses: [...new Set(contacts.map((c) => c.email.toLowerCase()))],
        webhooks,
        partition: 0,
        cursor: null,
        version: 0,
        rewritten: 0,
      },
    },
    { put: { ...keys.eraseJob.running(teamId, jobId), type: 'erase_job_running', team_id: teamId, job_id: jobId } },
  ]);
  await queueErase(deps, [{ teamId, jobId }]);
  return jobId;
};

const queueErase = (deps: Deps, jobs: readonly EraseJobRef[]) =>
  deps.queue.send(
    deps.config.ERASE_QUEUE_URL,
    jobs.map((body) => ({ body })),
  );

/**
 * Runs an erase job for a bounded number of pages, saving its position after each page (a crash
 * resumes from the last saved page; rewriting a page twice is harmless). Returns 'more' while
 * history remains; at the end the job is marked finished and each contact gets a
 * `contact.erased` event saying when.
 */
export const runEraseJob = async (deps: Deps, ref: EraseJobRef, pages = PAGES_PER_RUN): Promise<'done' | 'more'> => {
  let job = await getItem(deps, keys.eraseJob.item(ref.teamId, ref.jobId));
  if (job?.status !== 'running') return 'done';
  const addresses = new Set<string>(job.addresses);
  const history = historyOf(ref.teamId, (job.webhooks as string[] | undefined) ?? []);
  for (let budget = pages; job.partition < history.length; ) {
    for await (const page of queryPages(deps, history[job.partition]!, job.cursor ?? undefined)) {
      let rewritten = 0;
      for (const item of page.items) if (await scrubItem(deps, item, addresses)) rewritten++;
      const next = page.next
        ? { partition: job.partition, cursor: page.next }
        : { partition: job.partition + 1, cursor: null };
      const saved: Item | undefined = await updateItem(
        deps,
        keys.eraseJob.item(ref.teamId, ref.jobId),
        { set: { ...next, updated_at: new Date(deps.clock.now()).toISOString() }, add: { version: 1, rewritten } },
        { attr: 'version', eq: job.version },
      );
      // Another run of the same job moved on meanwhile: it carries on, this one stops.
      if (!saved) return 'done';
      job = saved;
      if (--budget <= 0 && job.partition < history.length) return 'more';
      if (!page.next) break;
    }
  }
  const finishedAt = new Date(deps.clock.now()).toISOString();
  const events = (job.contacts as { id: string; created_at: string }[]).map((c) =>
    eventItem(deps, ref.teamId, 'contact.erased', {
      id: c.id,
      email: ERASED,
      created_at: c.created_at,
      erase_job_id: ref.jobId,
      started_at: job!.created_at,
      finished_at: finishedAt,
      items_rewritten: job!.rewritten,
      source: 'api',
    }),
  );
  const finished = await transact(deps, [
    {
      update: keys.eraseJob.item(ref.teamId, ref.jobId),
      change: { set: { status: 'finished', finished_at: finishedAt } },
      when: { attr: 'status', eq: 'running' },
    },
    { delete: keys.eraseJob.running(ref.teamId, ref.jobId) },
    ...events.map((e) => ({ put: e.item })),
  ]);
  if (finished.ok)
    await publishEvents(
      deps,
      events.map((e) => e.record),
    );
  return 'done';
};

/** A request log's body (a JSON text): the address wherever it stands, a cut preview's text included. */
const scrubLogBody = (text: string | null, addresses: ReadonlySet<string>): string | null => {
  if (text === null) return text;
  let json = JSON.stringify(scrub(JSON.parse(text), addresses));
  for (const address of addresses) json = json.replaceAll(new RegExp(escapeRegExp(address), 'gi'), ERASED);
  return json;
};

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const scrubItem = async (deps: Deps, item: Item, addresses: ReadonlySet<string>): Promise<boolean> => {
  if (item.type === 'request_log') {
    const bodies = bodiesOf(item);
    const text = [bodies.request_body, bodies.response_body].map((t) => String(t ?? '').toLowerCase());
    if (![...addresses].some((a) => text.some((t) => t.includes(a)))) return false;
    const scrubbed = storedBodies({
      request_body: scrubLogBody(bodies.request_body, addresses),
      response_body: scrubLogBody(bodies.response_body, addresses),
    });
    await updateItem(
      deps,
      { pk: item.pk, sk: item.sk },
      { set: scrubbed, ...(scrubbed.bodies ? {} : { remove: ['bodies'] }) },
    );
    return true;
  }
  if (item.type === 'webhook_delivery') {
    // The body as sent (a JSON text): retries and replays send the scrubbed one, signed afresh.
    const body: unknown = JSON.parse(String(item.payload));
    if (!mentions(body, addresses)) return false;
    await updateItem(deps, { pk: item.pk, sk: item.sk }, { set: { payload: JSON.stringify(scrub(body, addresses)) } });
    return true;
  }
  const fields = item.type === 'email' ? ['to', 'cc', 'bcc', 'reply_to'] : ['data'];
  if (!fields.some((f) => mentions(item[f], addresses))) return false;
  await updateItem(
    deps,
    { pk: item.pk, sk: item.sk },
    { set: Object.fromEntries(fields.map((f) => [f, scrub(item[f], addresses)])) },
  );
  return true;
};

/** Queues every erase job still running again (a lost message, a crashed worker). */
export const resumeEraseJobs = async (deps: Deps): Promise<{ resumed: number }> => {
  const running = await queryAll(deps, { pk: keys.eraseJob.runningPartition() });
  await queueErase(
    deps,
    running.map((r) => ({ teamId: r.team_id as string, jobId: r.job_id as string })),
  );
  return { resumed: running.length };
};
