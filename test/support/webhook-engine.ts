import { readConfig } from '@mailstack/core/runtime/config';
import { createDeps, type Deps } from '@mailstack/core/runtime/deps';
import type { ScheduleRequest } from '@mailstack/core/ports/scheduler';
import type { QueueMessage } from '@mailstack/core/ports/queue';
import { recordEvent, type EventType } from '@mailstack/core/domain/events/record-event';
import { fanOutEvent } from '@mailstack/core/domain/webhooks/fan-out-events';
import type { DeliveryJob } from '@mailstack/core/domain/webhooks/deliver';
import { local } from './local.ts';

/** A contact.created `data` as the service records it (the reference's ContactEventData: every required field). */
const CONTACT_CREATED = {
  id: 'c1',
  email: 'a@example.com',
  first_name: null,
  last_name: null,
  unsubscribed: false,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

/**
 * The delivery engine on the test run's table with a clock the test moves and a queue and
 * scheduler that only record: the local host's workers never see these jobs, so the test
 * drives every attempt itself.
 */
export const engineUnderTest = (env: Record<string, string> = {}) => {
  const clock = {
    t: Date.now(),
    now() {
      return this.t;
    },
  };
  const queued: { job: DeliveryJob; delaySeconds: number; at: number }[] = [];
  const scheduled: (ScheduleRequest & { job: DeliveryJob })[] = [];
  const deps: Deps = createDeps(readConfig({ ...local().env, ...env }), {
    clock,
    queue: {
      send: async (_url: string, messages: readonly QueueMessage[]) => {
        for (const m of messages)
          queued.push({ job: m.body as DeliveryJob, delaySeconds: m.delaySeconds ?? 0, at: clock.now() });
      },
    },
    scheduler: {
      schedule: async (r: ScheduleRequest) => {
        scheduled.push({ ...r, job: r.body as DeliveryJob });
      },
      cancel: async () => undefined,
    },
  });
  return {
    deps,
    clock,
    queued,
    scheduled,
    /** Records an event of the team and fans it out; returns the delivery jobs it queued. */
    async emit(teamId: string, type: EventType = 'contact.created', data: Record<string, unknown> = CONTACT_CREATED) {
      const before = queued.length;
      const event = await recordEvent(deps, teamId, type, data);
      queued.splice(before); // the events-queue message recordEvent published
      await fanOutEvent(deps, { eventId: event.id, teamId, type });
      return { event, jobs: queued.splice(before).map((q) => q.job) };
    },
    /** What the last attempt queued next (and clears it): the delay and whether SQS or the scheduler holds it. */
    takeNext(): { delayMs: number; via: 'queue' | 'scheduler'; job: DeliveryJob } | undefined {
      const q = queued.splice(0);
      const s = scheduled.splice(0);
      if (q.length + s.length > 1) throw new Error(`expected at most one follow-up job, got ${q.length + s.length}`);
      if (q[0]) return { delayMs: q[0].delaySeconds * 1000, via: 'queue', job: q[0].job };
      if (s[0]) return { delayMs: s[0].at - clock.now(), via: 'scheduler', job: s[0].job };
      return undefined;
    },
  };
};
