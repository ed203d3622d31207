/** A one-time schedule that drops a message on a queue at a given instant. */
export interface ScheduleRequest {
  /** Unique name; scheduling the same name again replaces it. */
  readonly name: string;
  /** Epoch milliseconds. */
  readonly at: number;
  readonly queueUrl: string;
  readonly body: unknown;
}

/** One-time schedules (EventBridge Scheduler on AWS; due items in the table locally). */
export interface Scheduler {
  schedule(request: ScheduleRequest): Promise<void>;
  /** Removes a schedule; a missing one is not an error. */
  cancel(name: string): Promise<void>;
}
