import { describe, expect, it } from 'vitest';
import type { Deps } from '@mailstack/core/runtime/deps';
import type { EmailItem } from '@mailstack/core/domain/emails/email';
import { deliverEmail } from '@mailstack/core/domain/emails/pipeline/deliver-email';
import { firingInstant, type SchedulerFiring } from '@mailstack/core/adapters/aws/table-scheduler';
import { queueDelayScheduler } from '@mailstack/core/adapters/aws/queue-delay-scheduler';
import type { QueueMessage } from '@mailstack/core/ports/queue';
import type { ScheduleRequest } from '@mailstack/core/ports/scheduler';

const NOW = Date.parse('2026-11-23T12:00:20Z');
const deps = { clock: { now: () => NOW } } as unknown as Deps;
const scheduledAt = (ms: number) =>
  ({ id: 'e1', team_id: 't1', status: 'scheduled', scheduled_at: new Date(ms).toISOString() }) as EmailItem;
const job = { teamId: 't1', emailId: 'e1' };

describe('a scheduled email whose job comes before its time (EventBridge Scheduler fires within the minute)', () => {
  it.each([
    ['40 s early', 40_000, 40],
    ['a second and a bit early', 1_200, 2],
    ["14 minutes early (within the queue's 15-minute delay)", 840_000, 840],
  ])('waits the rest on the queue, %s', async (_case, early, seconds) => {
    // Act
    const outcome = await deliverEmail(deps, job, { email: scheduledAt(NOW + early) });

    // Assess: back on the queue at its time, not dropped until the sweeper minutes later.
    expect(outcome).toEqual({ kind: 'retry', delaySeconds: seconds, job });
  });

  it("leaves a job made for an earlier time of a moved email to the new time's schedule", async () => {
    const outcome = await deliverEmail(deps, job, { email: scheduledAt(NOW + 3_600_000) });
    expect(outcome).toEqual({ kind: 'done' });
  });
});

describe('the local scheduler fires inside the minute of its instant, as EventBridge Scheduler does', () => {
  const at = Date.parse('2026-11-23T12:00:40.250Z');
  const minute = Date.parse('2026-11-23T12:00:00Z');

  it.each<[SchedulerFiring, number, number]>([
    ['minute-start', 0.5, minute],
    ['minute-end', 0.5, minute + 59_999],
    ['anywhere', 0, minute],
    ['anywhere', 0.999_999, minute + 59_999],
    ['anywhere', 0.5, minute + 30_000],
  ])('%s (chance %d)', (firing, chance, expected) => {
    expect(firingInstant(at, firing, () => chance)).toBe(expected);
  });

  it('picks a different instant for each schedule when left to chance', () => {
    const instants = new Set(Array.from({ length: 50 }, () => firingInstant(at, 'anywhere')));
    expect(instants.size).toBeGreaterThan(1);
    for (const i of instants) expect(i - minute).toBeGreaterThanOrEqual(0);
    for (const i of instants) expect(i - minute).toBeLessThan(60_000);
  });
});

describe('queueDelayScheduler', () => {
  const recorder = () => {
    const sent: { url: string; messages: readonly QueueMessage[] }[] = [];
    const scheduled: ScheduleRequest[] = [];
    const canceled: string[] = [];
    const scheduler = queueDelayScheduler(
      {
        schedule: async (r) => void scheduled.push(r),
        cancel: async (name) => void canceled.push(name),
      },
      { send: async (url, messages) => void sent.push({ url, messages }) },
      () => deps.clock,
    );
    return { scheduler, sent, scheduled, canceled };
  };

  it.each([
    ['an instant already past (AWS may refuse it at create)', -5_000, 0],
    ['now', 0, 0],
    ['half a minute ahead', 30_500, 31],
    ['just under a minute ahead', 59_999, 60],
  ])('sends %s straight to the queue with its delay, never to the scheduler', async (_case, ahead, seconds) => {
    // Prepare
    const { scheduler, sent, scheduled, canceled } = recorder();

    // Act
    await scheduler.schedule({ name: 'n', at: NOW + ahead, queueUrl: 'q', body: { x: 1 } });

    // Assess: the schedule of that name made before is gone, as a new schedule replaces it.
    expect(scheduled).toEqual([]);
    expect(canceled).toEqual(['n']);
    expect(sent).toEqual([{ url: 'q', messages: [{ body: { x: 1 }, delaySeconds: seconds }] }]);
  });

  it('hands an instant a minute or more ahead to the scheduler', async () => {
    const { scheduler, sent, scheduled } = recorder();
    await scheduler.schedule({ name: 'n', at: NOW + 60_000, queueUrl: 'q', body: {} });
    expect(sent).toEqual([]);
    expect(scheduled).toHaveLength(1);
  });
});
