import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { batchWriteItems, getItem, type Item, type Key, queryAll, queryPages, type Range } from '../../table/ops.ts';
import { endRun } from './run.ts';
import type { Step } from './graph.ts';
import { type AutomationJob, queueUrl } from './jobs.ts';

/**
 * Winding an automation down, a page at a time: `stop` and `delete` cancel its running runs, and
 * `delete` then removes everything the automation kept (its versions, runs, their steps and
 * waits, the run guards and step tallies). A request does the first page itself; the rest is a
 * chain of jobs on the automations queue, each one page, so no request or job holds an
 * automation with many runs for long, and a job that dies is redelivered and picks up its page.
 */

/** Runs one page reads (running or not): a stop's own request ends the running ones among the first page. */
export const RUNS_PER_PAGE = 200;
/** How long after its last runs were cancelled a deleted automation's rows are removed: steps already in hand finish first. */
export const PURGE_DELAY_SECONDS = 60;
/** Step statuses that left no wait behind. */
const ENDED = new Set(['completed', 'skipped', 'failed']);
/** Rows of a deleted automation's partition removed per job. */
const PURGE_PAGE = 100;

/** Where a wind-down goes on from: DynamoDB's cursor in the automation's partition. */
type Cursor = Record<string, unknown>;

export type WindDownJob =
  | {
      readonly kind: 'end-runs';
      readonly teamId: string;
      readonly automationId: string;
      readonly from?: Cursor;
      /** Remove the automation's rows once its runs are ended (it was deleted). */
      readonly purge: boolean;
    }
  | { readonly kind: 'purge'; readonly teamId: string; readonly automationId: string; readonly from?: Cursor };

/** One page of a range from a cursor, and the cursor after it. */
const onePage = async (deps: Deps, range: Range, from: Cursor | undefined) => {
  const page = await queryPages(deps, range, from).next();
  return page.done ? { items: [] as Item[], next: undefined } : page.value;
};

const queue = (deps: Deps, job: WindDownJob, delaySeconds?: number) =>
  deps.queue.send(queueUrl(deps), [{ body: job satisfies AutomationJob, ...(delaySeconds ? { delaySeconds } : {}) }]);

/**
 * Cancels the running runs among one page of an automation's runs, then queues the next page, or,
 * at the end, the purge of a deleted automation. Their pending step jobs find them cancelled and
 * do nothing. Answers how many runs this page cancelled.
 */
export const endRunsPage = async (
  deps: Deps,
  job: Omit<Extract<WindDownJob, { kind: 'end-runs' }>, 'kind'>,
): Promise<number> => {
  const { teamId, automationId } = job;
  const { items, next } = await onePage(
    deps,
    {
      pk: keys.automation.runPartition(teamId, automationId),
      prefix: keys.automation.runPrefix,
      filter: { attr: 'status', eq: 'running' },
      project: ['id'],
      pageSize: RUNS_PER_PAGE,
    },
    job.from,
  );
  // Each run's own conditional write, side by side (a page is at most RUNS_PER_PAGE).
  await Promise.all(items.map((r) => endRun(deps, { teamId, automationId, id: r.id }, 'cancelled')));
  if (next) await queue(deps, { kind: 'end-runs', teamId, automationId, from: next, purge: job.purge });
  else if (job.purge) await queue(deps, { kind: 'purge', teamId, automationId }, PURGE_DELAY_SECONDS);
  return items.length;
};

/**
 * Removes one page of a deleted automation's partition (its versions, runs, run guards and step
 * tallies), with each run's steps and the wait a run was stopped in, and queues the next page.
 */
export const purgePage = async (deps: Deps, job: Extract<WindDownJob, { kind: 'purge' }>): Promise<void> => {
  const { teamId, automationId } = job;
  const { items, next } = await onePage(
    deps,
    { pk: keys.automation.runPartition(teamId, automationId), pageSize: PURGE_PAGE },
    job.from,
  );
  // The steps of each version a run of this page ran on (a wait's event name is in its step).
  const versions = new Map<string, Promise<readonly Step[]>>();
  const stepsOf = (versionId: string) => {
    if (!versions.has(versionId))
      versions.set(
        versionId,
        getItem(deps, keys.automation.version(teamId, automationId, versionId), false).then((v) => v?.steps ?? []),
      );
    return versions.get(versionId)!;
  };
  const doomed: Key[] = [];
  for (const row of items) {
    if (String(row.sk).startsWith(keys.automation.runPrefix)) {
      const steps = await queryAll(deps, {
        pk: keys.automation.stepPartition(teamId, String(row.id)),
        prefix: keys.automation.stepPrefix,
      });
      for (const s of steps) {
        doomed.push({ pk: s.pk, sk: s.sk });
        // A run cancelled while waiting for an event leaves its wait, found by the contact and the event's name.
        if (s.step_type === 'wait_for_event' && !ENDED.has(s.status)) {
          const step = (await stepsOf(String(row.version_id))).find((g) => g.key === s.key);
          const eventName = (step?.config as { event_name?: string } | undefined)?.event_name;
          if (eventName)
            doomed.push(keys.automation.waiting(teamId, String(row.contact_id), eventName, String(row.id), s.n));
        }
      }
    }
  }
  // VERSION# rows sort after RUN# rows: a run's version is still there when the run's page is removed.
  doomed.push(...items.map((i) => ({ pk: i.pk, sk: i.sk })));
  await batchWriteItems(deps, { delete: doomed });
  if (next) await queue(deps, { kind: 'purge', teamId, automationId, from: next });
};
