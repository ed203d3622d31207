import type { Clock } from '../../ports/clock.ts';
import type { JobQueue } from '../../ports/queue.ts';
import type { Scheduler } from '../../ports/scheduler.ts';

/**
 * How far ahead a schedule goes to the queue with a delay instead of to the scheduler: inside
 * EventBridge Scheduler's precision (a minute) the scheduler could only fire it late or early,
 * and an instant already past may be refused at create.
 */
export const QUEUE_DELAY_UNDER_MS = 60_000;

/**
 * A scheduler that sends what is due within the next minute (or is already due) straight to its
 * queue, delayed to its second (SQS delays are whole seconds, up to 900), and hands the rest to
 * `scheduler`. Such a message cannot be canceled: what it starts checks, as every scheduled job
 * does, that it is still wanted (a canceled email is not sent, a moved one waits for its time).
 */
export const queueDelayScheduler = (scheduler: Scheduler, queue: JobQueue, clock: () => Clock): Scheduler => ({
  async schedule(request) {
    const ahead = request.at - clock().now();
    if (ahead >= QUEUE_DELAY_UNDER_MS) return scheduler.schedule(request);
    // A schedule made earlier under this name would fire too: the one this replaces is gone.
    await scheduler.cancel(request.name);
    await queue.send(request.queueUrl, [{ body: request.body, delaySeconds: Math.max(0, Math.ceil(ahead / 1000)) }]);
  },
  cancel: (name) => scheduler.cancel(name),
});
