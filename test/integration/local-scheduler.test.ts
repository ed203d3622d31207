import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { readConfig } from '@mailstack/core/runtime/config';
import { createClients } from '@mailstack/core/adapters/aws/clients';
import { newCounters } from '@mailstack/core/adapters/aws/counters';
import { tableScheduler, type SchedulerFiring } from '@mailstack/core/adapters/aws/table-scheduler';
import { local } from '../support/local.ts';

const db = () => createClients(readConfig(local().env), newCounters()).db;

/** An instant 40 s into a minute long after this run (so the host's own loop never fires it). */
const AT = Date.parse('2099-03-01T12:00:40Z');
const MINUTE = Date.parse('2099-03-01T12:00:00Z');

const made = async (firing: SchedulerFiring) => {
  const scheduler = tableScheduler(db(), local().env.TABLE_NAME!, firing);
  const name = `test-${randomUUID()}`;
  await scheduler.schedule({ name, at: AT, queueUrl: 'q', body: { name } });
  const dueAt = async (now: number) => (await scheduler.takeDue(now)).filter((d) => d.name === name);
  return { scheduler, name, dueAt };
};

describe('the local scheduler, as EventBridge Scheduler, fires inside the minute of its instant', () => {
  it('fires a schedule at 12:00:40 as early as 12:00:00 (minute-start), not before its minute', async () => {
    // Prepare
    const { scheduler, dueAt } = await made('minute-start');

    // Act
    const before = await dueAt(MINUTE - 1);
    const atStart = await dueAt(MINUTE);

    // Assess: 40 s before its instant, as AWS may.
    expect(before).toEqual([]);
    expect(atStart).toMatchObject([{ at: AT, firesAt: MINUTE }]);
    await scheduler.done(atStart[0]!);
    expect(await dueAt(AT + 60_000)).toEqual([]);
  });

  it('fires as late as the minute’s last millisecond (minute-end)', async () => {
    const { scheduler, dueAt } = await made('minute-end');
    expect(await dueAt(AT)).toEqual([]);
    expect(await dueAt(MINUTE + 59_999)).toMatchObject([{ at: AT, firesAt: MINUTE + 59_999 }]);
    await scheduler.cancel((await dueAt(MINUTE + 59_999))[0]!.name);
    expect(await dueAt(MINUTE + 59_999)).toEqual([]);
  });

  it('fires anywhere inside the minute by default, and a canceled schedule never fires', async () => {
    const { scheduler, name, dueAt } = await made('anywhere');
    const [due] = await dueAt(MINUTE + 59_999);
    expect(due!.firesAt).toBeGreaterThanOrEqual(MINUTE);
    expect(due!.firesAt).toBeLessThan(MINUTE + 60_000);
    expect(await dueAt(due!.firesAt - 1)).toEqual([]);
    await scheduler.cancel(name);
    expect(await dueAt(MINUTE + 59_999)).toEqual([]);
  });
});
