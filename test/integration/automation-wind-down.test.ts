import { describe, expect, it } from 'vitest';
import { createDeps, type Deps } from '@mailstack/core/runtime/deps';
import { keys } from '@mailstack/core/table/keys';
import { batchWriteItems, queryAll } from '@mailstack/core/table/ops';
import { runAutomationJob } from '@mailstack/core/domain/automations/engine';
import type { AutomationJob } from '@mailstack/core/domain/automations/jobs';
import { acceptEvent } from '@mailstack/core/domain/automations/send-event';
import { deleteAutomation } from '@mailstack/core/domain/automations/delete-automation';
import { getAutomation } from '@mailstack/core/domain/automations/automation';
import { stopAutomation } from '@mailstack/core/domain/automations/stop-automation';
import { updateAutomation } from '@mailstack/core/domain/automations/update-automation';
import { PURGE_DELAY_SECONDS, RUNS_PER_PAGE } from '@mailstack/core/domain/automations/wind-down';
import { testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';

/** This test plays the automations queue (keeping each job's delay) and the scheduler. */
const world = () => {
  const base = testDeps();
  const jobs: { job: AutomationJob; delaySeconds: number }[] = [];
  const deps: Deps = createDeps(base.config, {
    queue: {
      send: async (url, messages) => {
        // The events a step publishes (a contact update's contact.updated) are not this world's.
        if (url === base.config.EVENTS_QUEUE_URL) return;
        if (url !== base.config.AUTOMATION_QUEUE_URL) throw new Error(`unexpected queue ${url}`);
        jobs.push(...messages.map((m) => ({ job: m.body as AutomationJob, delaySeconds: m.delaySeconds ?? 0 })));
      },
    },
    scheduler: { schedule: async () => undefined, cancel: async () => undefined },
  });
  /** Runs every queued job, and those they queue, in order. */
  const drain = async () => {
    const ran: { job: AutomationJob; delaySeconds: number }[] = [];
    for (let next = jobs.shift(); next; next = jobs.shift()) {
      ran.push(next);
      await runAutomationJob(deps, next.job);
    }
    return ran;
  };
  return { deps, jobs, drain };
};

/** `count` runs of an automation written as the engine writes a started one, running. */
const runningRuns = async (deps: Deps, teamId: string, automationId: string, versionId: string, count: number) => {
  const at = new Date().toISOString();
  await batchWriteItems(deps, {
    put: Array.from({ length: count }, () => {
      const id = deps.ids.next();
      return {
        ...keys.automation.run(teamId, automationId, id),
        type: 'automation_run',
        id,
        team_id: teamId,
        automation_id: automationId,
        version_id: versionId,
        contact_id: deps.ids.next(),
        event_id: deps.ids.next(),
        payload: {},
        status: 'running',
        started_at: at,
        completed_at: null,
        created_at: at,
      };
    }),
  });
};

const runStatuses = async (deps: Deps, teamId: string, automationId: string) => {
  const runs = await queryAll(deps, {
    pk: keys.automation.runPartition(teamId, automationId),
    prefix: keys.automation.runPrefix,
  });
  const counts: Record<string, number> = {};
  for (const r of runs) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
};

/** An enabled automation that, after cart.left, waits a day for order.paid, then updates the contact. */
const cartAutomation = (t: Awaited<ReturnType<typeof sendingTeam>>) =>
  t.resend.automations.create({
    name: 'Cart',
    status: 'enabled',
    steps: [
      { key: 'start', type: 'trigger', config: { eventName: 'cart.left' } },
      { key: 'paid', type: 'wait_for_event', config: { eventName: 'order.paid', timeout: '1 day' } },
      { key: 'thanks', type: 'contact_update', config: { firstName: 'paid' } },
    ],
    connections: [
      { from: 'start', to: 'paid' },
      { from: 'paid', to: 'thanks', type: 'event_received' },
    ],
  });

describe('winding an automation down', () => {
  it(`stops an automation with more runs than a page (${RUNS_PER_PAGE}): the request cancels the first page, queued jobs the rest; a delete removes its versions, runs, steps and waits`, async () => {
    const t = await sendingTeam();
    const w = world();
    const created = await cartAutomation(t);
    const id = created.data!.id;
    const automation = await getAutomation(w.deps, t.team.id, id);
    // One run started by a real event, which reaches its wait; then many more, running.
    const email = `cart@${t.domain}`;
    await t.resend.contacts.create({ email });
    await acceptEvent(w.deps, t.team.id, { event: 'cart.left', email });
    await w.drain();
    const [real] = await queryAll(w.deps, {
      pk: keys.automation.runPartition(t.team.id, id),
      prefix: keys.automation.runPrefix,
    });
    const contactId = String(real!.contact_id);
    const waits = () => queryAll(w.deps, { pk: keys.automation.waitingPartition(t.team.id, contactId, 'order.paid') });
    expect(await waits()).toHaveLength(1);
    await runningRuns(w.deps, t.team.id, id, automation.versionId, RUNS_PER_PAGE + 49);
    const total = RUNS_PER_PAGE + 50;
    expect(await runStatuses(w.deps, t.team.id, id)).toEqual({ running: total });

    // The stop's own request cancels one page of runs and leaves the rest to a job.
    await stopAutomation(w.deps, t.team.id, id);
    expect(await runStatuses(w.deps, t.team.id, id)).toEqual({ cancelled: RUNS_PER_PAGE, running: 50 });
    expect(w.jobs.map((j) => j.job.kind)).toEqual(['end-runs']);
    const ran = await w.drain();
    expect(ran.map((j) => j.job.kind)).toEqual(['end-runs']);
    expect(await runStatuses(w.deps, t.team.id, id)).toEqual({ cancelled: total });
    expect((await getAutomation(w.deps, t.team.id, id)).status).toBe('disabled');

    // A delete passes over the runs (none running now), then removes the automation's rows after a delay.
    await deleteAutomation(w.deps, t.team.id, id);
    const purged = await w.drain();
    const kinds = purged.map((j) => j.job.kind);
    expect(kinds[0]).toBe('end-runs');
    // Some 254 rows (runs, the run's guard and count, step tallies, the version), a page of 100 a job.
    expect(kinds.slice(1)).toEqual(['purge', 'purge', 'purge']);
    expect(purged[1]!.delaySeconds).toBe(PURGE_DELAY_SECONDS);
    expect(await queryAll(w.deps, { pk: keys.automation.runPartition(t.team.id, id) })).toEqual([]);
    expect(await queryAll(w.deps, { pk: keys.automation.stepPartition(t.team.id, String(real!.id)) })).toEqual([]);
    expect(await waits()).toEqual([]);
    // Gone from the API as soon as it was deleted.
    expect((await t.resend.automations.get(id)).error?.name).toBe('not_found');
  }, 120_000);
});

describe('events the engine reads after the API accepted them', () => {
  it('starts no run for an event accepted before the automation listened, though the engine reads the event after (its queue runs behind the API)', async () => {
    // Prepare: an event accepted, its job still on the queue.
    const t = await sendingTeam();
    const w = world();
    const email = `early@${t.domain}`;
    await t.resend.contacts.create({ email });
    await acceptEvent(w.deps, t.team.id, { event: 'trial.started', email });
    await new Promise((r) => setTimeout(r, 5));
    const created = await t.resend.automations.create({
      name: 'Trial',
      status: 'disabled',
      steps: [{ key: 'start', type: 'trigger', config: { eventName: 'trial.started' } }],
      connections: [],
    });
    const id = created.data!.id;
    await new Promise((r) => setTimeout(r, 5));
    await acceptEvent(w.deps, t.team.id, { event: 'trial.started', email });
    await new Promise((r) => setTimeout(r, 5));
    await updateAutomation(w.deps, t.team.id, id, { status: 'enabled' });

    // Act: the engine reads both events after the automation was enabled, then one sent after.
    await w.drain();
    const before = await runStatuses(w.deps, t.team.id, id);
    await acceptEvent(w.deps, t.team.id, { event: 'trial.started', email });
    await w.drain();

    // Assess
    expect(before).toEqual({});
    expect(await runStatuses(w.deps, t.team.id, id)).toEqual({ completed: 1 });
    // A save that neither enables it nor moves its trigger keeps it listening since it was enabled.
    await updateAutomation(w.deps, t.team.id, id, { name: 'Trial, renamed' });
    await acceptEvent(w.deps, t.team.id, { event: 'trial.started', email: `early@${t.domain}` });
    await w.drain();
    expect((await runStatuses(w.deps, t.team.id, id)).completed).toBe(2);
  }, 60_000);

  it("resumes a run's wait_for_event only with an event accepted once the run waits, not one the engine reads late", async () => {
    // Prepare: an automation waiting for order.paid after cart.left; an order.paid accepted, its job held back.
    const t = await sendingTeam();
    const w = world();
    const created = await cartAutomation(t);
    const id = created.data!.id;
    const email = `late@${t.domain}`;
    await t.resend.contacts.create({ email });
    await acceptEvent(w.deps, t.team.id, { event: 'order.paid', email });
    const early = w.jobs.splice(0);
    await new Promise((r) => setTimeout(r, 5));
    await acceptEvent(w.deps, t.team.id, { event: 'cart.left', email });
    await w.drain();

    // Act: the engine reads the early order.paid now, while the run waits.
    w.jobs.push(...early);
    await w.drain();
    const stillWaiting = await runStatuses(w.deps, t.team.id, id);
    await acceptEvent(w.deps, t.team.id, { event: 'order.paid', email });
    await w.drain();

    // Assess
    expect(stillWaiting).toEqual({ running: 1 });
    expect(await runStatuses(w.deps, t.team.id, id)).toEqual({ completed: 1 });
  }, 60_000);
});
