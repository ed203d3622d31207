import type { Deps } from '../../runtime/deps.ts';
import { keys, shardOf } from '../../table/keys.ts';
import { deleteItem, getItem, queryAll, transact } from '../../table/ops.ts';
import { DAILY_COUNTER_RETENTION_SECONDS, MAX_RUN_STEPS, MAX_RUNS_PER_CONTACT } from '../../limits.ts';
import { calendarOf } from '../usage/get-usage.ts';
import { findContact } from '../contacts/contact.ts';
import type { SentEvent } from './send-event.ts';
import { graphOf } from './automation.ts';
import { nextStep, type Graph } from './graph.ts';
import { endRun, runFromItem, stepFromItem, type Run, type RunStep } from './run.ts';
import { evaluate } from './conditions.ts';
import type { ConnectionType } from './vocabulary.ts';
import { type AutomationJob, iso, queueUrl, scheduleName, stepJob } from './jobs.ts';
import { contextOf, execute } from './step-actions.ts';
import { endRunsPage, purgePage } from './wind-down.ts';

/**
 * The automation engine. Each unit of work is a job on the automations queue, so a step runs at
 * least once, and each step acts exactly once:
 *
 * - `event`: a sent event starts a run of each enabled automation it triggers (the trigger index,
 *   no scan), at most one per (automation, event, contact), and resumes the runs of that contact
 *   waiting for it (the waiting index, keyed by team, contact and event name: no scan).
 * - `step`: runs the n-th step of a run. Its record is written before its job is queued, so a
 *   redelivered job finds it: a completed step only passes the run on again (idempotently), a
 *   send step whose email id was chosen with its record finds that email already accepted.
 *
 * Delays and wait timeouts are one-time schedules (EventBridge Scheduler; the local stand-in)
 * that drop the step's job back on the queue when due.
 */

/** Hands a sent event to the engine. */
export const queueEvent = (deps: Deps, event: SentEvent): Promise<void> =>
  deps.queue.send(queueUrl(deps), [{ body: { kind: 'event', event } satisfies AutomationJob }]);

/** Runs one job. */
export const runAutomationJob = async (deps: Deps, job: AutomationJob): Promise<void> => {
  if (job.kind === 'event') await handleEvent(deps, job.event);
  else if (job.kind === 'step') await runStep(deps, job);
  else if (job.kind === 'end-runs') await endRunsPage(deps, job);
  else await purgePage(deps, job);
};

const handleEvent = async (deps: Deps, event: SentEvent): Promise<void> => {
  const [triggered, waiting] = await Promise.all([
    queryAll(deps, { pk: keys.automation.triggerPartition(event.teamId, event.name) }),
    queryAll(deps, { pk: keys.automation.waitingPartition(event.teamId, event.contactId, event.name) }),
  ]);
  for (const t of triggered) await startRun(deps, t.automation_id, event);
  for (const w of waiting) await resumeWaiting(deps, w, event);
};

/** Starts one run of an automation for the event's contact (once per event, at most MAX_RUNS_PER_CONTACT per contact). */
const startRun = async (deps: Deps, automationId: string, event: SentEvent): Promise<void> => {
  const a = await getItem(deps, keys.automation.item(event.teamId, automationId));
  if (a?.status !== 'enabled') return;
  // An event accepted before the trigger listened (the engine runs behind the API) starts nothing.
  if (a.listening_since && event.at < a.listening_since) return;
  const graph = await graphOf(deps, event.teamId, automationId, a.version_id);
  const trigger = graph.steps.find((s) => s.type === 'trigger')!;
  const now = iso(deps);
  const cal = calendarOf(deps.clock.now());
  const runId = deps.ids.next();
  const runItem = {
    ...keys.automation.run(event.teamId, automationId, runId),
    type: 'automation_run',
    id: runId,
    team_id: event.teamId,
    automation_id: automationId,
    version_id: a.version_id,
    contact_id: event.contactId,
    event_id: event.id,
    payload: event.payload,
    status: 'running',
    started_at: now,
    completed_at: null,
    created_at: now,
  };
  const first = {
    ...keys.automation.step(event.teamId, runId, 0),
    type: 'automation_run_step',
    n: 0,
    key: trigger.key,
    step_type: 'trigger',
    status: 'completed',
    output: { event: event.name, event_id: event.id, branch: 'default' },
    error: null,
    started_at: now,
    completed_at: now,
    created_at: now,
  };
  const written = await transact(deps, [
    {
      put: {
        ...keys.automation.start(event.teamId, automationId, event.id, event.contactId),
        type: 'automation_start',
        run_id: runId,
      },
      when: { exists: false },
    },
    { put: runItem },
    { put: first },
    {
      update: keys.automation.runCount(event.teamId, automationId, event.contactId),
      change: { add: { count: 1 } },
      when: { or: [{ exists: false }, { attr: 'count', lt: MAX_RUNS_PER_CONTACT }] },
    },
    // Usage: runs started today (GET /usage) and this month.
    {
      update: keys.usage.day(event.teamId, cal.day, shardOf(runId, keys.usage.shards)),
      change: {
        add: { automation_runs: 1 },
        expiresAt: Math.ceil(cal.nextMidnight / 1000) + DAILY_COUNTER_RETENTION_SECONDS,
      },
    },
    {
      update: keys.usage.month(event.teamId, cal.month, shardOf(runId, keys.usage.shards)),
      change: { add: { automation_runs: 1 } },
    },
  ]);
  if (!written.ok) {
    if (written.failed === 3) {
      deps.logger.info('automation run not started: the contact reached the runs per contact', {
        automation_id: automationId,
        contact_id: event.contactId,
      });
      return;
    }
    // Started already (a redelivered event): pass the run on again from its trigger, in case that was lost.
    const started = await getItem(deps, keys.automation.start(event.teamId, automationId, event.id, event.contactId));
    const run = await getItem(deps, keys.automation.run(event.teamId, automationId, started!.run_id));
    if (!run) return;
    const existing = runFromItem(run);
    const triggerRecord = await getItem(deps, keys.automation.step(event.teamId, existing.id, 0));
    await advance(
      deps,
      existing,
      await graphOf(deps, event.teamId, automationId, existing.versionId),
      stepFromItem(triggerRecord!),
      'default',
    );
    return;
  }
  deps.metrics.addMetric('AutomationRunsStarted', 'Count', 1);
  await advance(deps, runFromItem(runItem), graph, stepFromItem(first), 'default');
};

/**
 * Passes a run on from a completed step along its connection of `type`: writes the next step's
 * record (once) and queues its job, or completes the run when no step follows.
 */
const advance = async (deps: Deps, run: Run, graph: Graph, from: RunStep, type: ConnectionType): Promise<void> => {
  const next = nextStep(graph, from.key, type);
  if (!next) {
    await endRun(deps, run, 'completed');
    return;
  }
  const n = from.n + 1;
  if (n >= MAX_RUN_STEPS) {
    deps.logger.warn('automation run stopped at the steps per run', {
      run_id: run.id,
      automation_id: run.automationId,
    });
    await endRun(deps, run, 'failed');
    return;
  }
  await transact(deps, [
    {
      put: {
        ...keys.automation.step(run.teamId, run.id, n),
        type: 'automation_run_step',
        n,
        key: next.key,
        step_type: next.type,
        status: 'pending',
        output: null,
        error: null,
        started_at: null,
        completed_at: null,
        created_at: iso(deps),
        ...(next.type === 'send_email' ? { email_id: deps.ids.next() } : {}),
      },
      when: { exists: false },
    },
  ]);
  await deps.queue.send(queueUrl(deps), [{ body: stepJob(run, n) }]);
};

/** Records a step's end (once: a step already ended keeps its outcome) and returns whether this call ended it. */
const finishStep = async (
  deps: Deps,
  run: Run,
  step: RunStep,
  outcome: {
    status: 'completed' | 'failed' | 'skipped';
    output?: Record<string, unknown>;
    error?: Record<string, unknown>;
  },
): Promise<boolean> => {
  // The step's end and its count on the automation's per-step tally move together, once.
  const done = await transact(deps, [
    {
      update: keys.automation.step(run.teamId, run.id, step.n),
      change: {
        set: {
          status: outcome.status,
          output: outcome.output ?? null,
          error: outcome.error ?? null,
          started_at: step.startedAt ?? iso(deps),
          completed_at: iso(deps),
        },
      },
      when: { attr: 'status', in: ['pending', 'running', 'waiting'] },
    },
    {
      update: keys.automation.stepCount(run.teamId, run.automationId, step.key),
      change: { add: { [outcome.status]: 1 } },
    },
  ]);
  return done.ok;
};

const runStep = async (deps: Deps, job: Extract<AutomationJob, { kind: 'step' }>): Promise<void> => {
  const runItem = await getItem(deps, keys.automation.run(job.teamId, job.automationId, job.runId));
  if (runItem?.status !== 'running') return;
  const run = runFromItem(runItem);
  const recItem = await getItem(deps, keys.automation.step(run.teamId, run.id, job.n));
  if (!recItem) return;
  const rec = stepFromItem(recItem);
  const graph = await graphOf(deps, run.teamId, run.automationId, run.versionId);
  if (rec.status === 'completed' || rec.status === 'skipped') {
    await advance(deps, run, graph, rec, (rec.output?.branch as ConnectionType | undefined) ?? 'default');
    return;
  }
  if (rec.status === 'failed') return;
  const step = graph.steps.find((s) => s.key === rec.key)!;
  const started = deps.clock.now();
  const outcome = await execute(deps, run, step, rec);
  if ('wait' in outcome) return;
  if ('error' in outcome) {
    if (await finishStep(deps, run, rec, { status: 'failed', error: outcome.error })) await endRun(deps, run, 'failed');
    return;
  }
  const ended = await finishStep(deps, run, rec, {
    status: outcome.skipped ? 'skipped' : 'completed',
    output: { ...outcome.output, branch: outcome.branch },
  });
  deps.metrics.addMetric('AutomationStepMs', 'Milliseconds', deps.clock.now() - started);
  // Another delivery ended it first (an event and a timeout racing on a wait): that one passes the run on.
  if (ended) await advance(deps, run, graph, rec, outcome.branch);
};

/** A later event for a waiting run's contact: resumes the run on `event_received` when the filter holds. */
const resumeWaiting = async (deps: Deps, w: Record<string, any>, event: SentEvent): Promise<void> => {
  const runItem = await getItem(deps, keys.automation.run(event.teamId, w.automation_id, w.run_id));
  if (runItem?.status !== 'running') {
    await deleteItem(deps, { pk: w.pk, sk: w.sk });
    return;
  }
  const run = runFromItem(runItem);
  const recItem = await getItem(deps, keys.automation.step(run.teamId, run.id, w.n));
  if (!recItem) return;
  const rec = stepFromItem(recItem);
  // The wait is for an event that happens once the run reaches it, not one accepted before.
  if (rec.startedAt && event.at < rec.startedAt) return;
  if (w.filter_rule) {
    const contact = await findContact(deps, run.teamId, run.contactId);
    const ctx = await contextOf(deps, { ...run, payload: event.payload }, contact);
    if (!(await evaluate(w.filter_rule, ctx))) return;
  }
  const ended = await finishStep(deps, run, rec, {
    status: 'completed',
    output: { event_id: event.id, payload: event.payload, branch: 'event_received' },
  });
  await deleteItem(deps, { pk: w.pk, sk: w.sk });
  if (!ended) return;
  await deps.scheduler.cancel(scheduleName(run.id, rec.n));
  const graph = await graphOf(deps, run.teamId, run.automationId, run.versionId);
  await advance(deps, run, graph, rec, 'event_received');
};
