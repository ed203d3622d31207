import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, queryAll, updateItem } from '../../table/ops.ts';
import { notFound } from '../../errors/api-error.ts';
import { isUuid } from '../../ports/ids.ts';
import type { RunStatus, RunStepStatus, StepType } from './vocabulary.ts';

/** A run of an automation for one contact, started by one event. */
export interface Run {
  readonly id: string;
  readonly teamId: string;
  readonly automationId: string;
  readonly versionId: string;
  readonly contactId: string;
  readonly eventId: string;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly status: RunStatus;
  readonly startedAt: string | null;
  readonly completedAt: string | null;
  readonly createdAt: string;
}

/** One executed step of a run (the n-th: a step on a loop runs again under a new n). */
export interface RunStep {
  readonly n: number;
  readonly key: string;
  readonly type: StepType;
  readonly status: RunStepStatus;
  readonly output: Record<string, unknown> | null;
  readonly error: Record<string, unknown> | null;
  readonly startedAt: string | null;
  readonly completedAt: string | null;
  readonly createdAt: string;
  /** When a delay ends or a wait times out (epoch ms). */
  readonly dueAt?: number;
  /** The id a send step's email takes, chosen when the step is reached: a redelivered job finds it sent. */
  readonly emailId?: string;
}

export const runFromItem = (i: Record<string, any>): Run => ({
  id: i.id,
  teamId: i.team_id,
  automationId: i.automation_id,
  versionId: i.version_id,
  contactId: i.contact_id,
  eventId: i.event_id,
  payload: i.payload ?? {},
  status: i.status,
  startedAt: i.started_at ?? null,
  completedAt: i.completed_at ?? null,
  createdAt: i.created_at,
});

export const stepFromItem = (i: Record<string, any>): RunStep => ({
  n: i.n,
  key: i.key,
  type: i.step_type,
  status: i.status,
  output: i.output ?? null,
  error: i.error ?? null,
  startedAt: i.started_at ?? null,
  completedAt: i.completed_at ?? null,
  createdAt: i.created_at,
  ...(i.due_at !== undefined ? { dueAt: i.due_at } : {}),
  ...(i.email_id ? { emailId: i.email_id } : {}),
});

/** The wire run as lists show it. */
export const runRow = (r: Run) => ({
  id: r.id,
  status: r.status,
  started_at: r.startedAt,
  completed_at: r.completedAt,
  created_at: r.createdAt,
});

/** The wire run with its steps in the order they ran. */
export const runView = (r: Run, steps: readonly RunStep[]) => ({
  object: 'automation_run' as const,
  ...runRow(r),
  steps: steps.map((s) => ({
    key: s.key,
    type: s.type,
    status: s.status,
    output: s.output,
    error: s.error,
    started_at: s.startedAt,
    completed_at: s.completedAt,
    created_at: s.createdAt,
  })),
});

/** A run of the automation; 404 for none. */
export const getRun = async (deps: Deps, teamId: string, automationId: string, runId: string): Promise<Run> => {
  const item = isUuid(runId) ? await getItem(deps, keys.automation.run(teamId, automationId, runId)) : undefined;
  if (!item) throw notFound(`Run ${runId} of automation ${automationId}`);
  return runFromItem(item);
};

/** The steps a run executed, in order. */
export const stepsOf = async (deps: Deps, teamId: string, runId: string): Promise<RunStep[]> =>
  (await queryAll(deps, { pk: keys.automation.stepPartition(teamId, runId), prefix: keys.automation.stepPrefix })).map(
    stepFromItem,
  );

/** Ends a run (completed, failed or cancelled) unless it already ended. */
export const endRun = async (deps: Deps, run: Pick<Run, 'teamId' | 'automationId' | 'id'>, status: RunStatus) => {
  await updateItem(
    deps,
    keys.automation.run(run.teamId, run.automationId, run.id),
    { set: { status, completed_at: new Date(deps.clock.now()).toISOString() } },
    { attr: 'status', eq: 'running' },
  );
};

/** How many runs ended each step of an automation how, by step key (the tally its steps keep). */
export const stepCounts = async (
  deps: Deps,
  teamId: string,
  automationId: string,
): Promise<Map<string, { completed: number; skipped: number; failed: number }>> =>
  new Map(
    (
      await queryAll(deps, {
        pk: keys.automation.runPartition(teamId, automationId),
        prefix: keys.automation.stepCountPrefix,
      })
    ).map((i) => [
      (i.sk as string).slice(keys.automation.stepCountPrefix.length),
      { completed: Number(i.completed ?? 0), skipped: Number(i.skipped ?? 0), failed: Number(i.failed ?? 0) },
    ]),
  );
