import type { Deps } from '../../runtime/deps.ts';
import type { SentEvent } from './send-event.ts';
import type { Run } from './run.ts';
import type { WindDownJob } from './wind-down.ts';

/** A job of the automations queue (see engine.ts). */
export type AutomationJob =
  | { readonly kind: 'event'; readonly event: SentEvent }
  | {
      readonly kind: 'step';
      readonly teamId: string;
      readonly automationId: string;
      readonly runId: string;
      readonly n: number;
    }
  | WindDownJob;

/** Now, as the stored timestamps spell it. */
export const iso = (deps: Deps) => new Date(deps.clock.now()).toISOString();
export const queueUrl = (deps: Deps) => deps.config.AUTOMATION_QUEUE_URL;
/** The one-time schedule of a run's n-th step (a delay's end, a wait's timeout). */
export const scheduleName = (runId: string, n: number) => `automation-${runId}-${n}`;
/** The job that runs a run's n-th step. */
export const stepJob = (run: Run, n: number): AutomationJob => ({
  kind: 'step',
  teamId: run.teamId,
  automationId: run.automationId,
  runId: run.id,
  n,
});
