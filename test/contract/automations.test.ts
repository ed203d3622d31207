import { describe, expect, it } from 'vitest';
import type { AutomationStep, CreateAutomationOptions } from 'resend';
import { call, newTeam } from '../support/local.ts';
import { expectReferenceShape } from '../support/openapi.ts';

/** A team with a template and a segment, and a welcome sequence over them (SDK spelling). */
const setup = async () => {
  const t = await newTeam();
  const template = (
    await t.resend.templates.create({ name: 'Welcome', subject: 'Welcome', html: '<p>Hi {{{FIRST_NAME}}}</p>' } as any)
  ).data!.id;
  const segment = (await t.resend.segments.create({ name: 'Onboarded' })).data!.id;
  const welcome = (steps: AutomationStep[] = []): CreateAutomationOptions => ({
    name: 'Welcome',
    steps: [
      { key: 'start', type: 'trigger', config: { eventName: 'user.signed_up' } },
      { key: 'hello', type: 'send_email', config: { template: { id: template }, subject: 'Welcome!' } },
      { key: 'wait', type: 'delay', config: { duration: '2 days' } },
      {
        key: 'opened',
        type: 'condition',
        config: { type: 'rule', field: 'email.opened', operator: 'eq', value: true },
      },
      { key: 'tag', type: 'add_to_segment', config: { segmentId: segment } },
      { key: 'nudge', type: 'send_email', config: { template: { id: template }, subject: 'Did you see this?' } },
      ...steps,
    ],
    connections: [
      { from: 'start', to: 'hello' },
      { from: 'hello', to: 'wait' },
      { from: 'wait', to: 'opened' },
      { from: 'opened', to: 'tag', type: 'condition_met' },
      { from: 'opened', to: 'nudge', type: 'condition_not_met' },
    ],
  });
  return { ...t, template, segment, welcome };
};

describe('automations', () => {
  it('creates, gets, lists, updates, duplicates, stops and removes an automation through the SDK', async () => {
    const { resend, welcome, segment } = await setup();
    const made = await resend.automations.create(welcome());
    expect(made.error).toBeNull();
    expect(made.data).toEqual({ object: 'automation', id: expect.any(String) });
    expectReferenceShape('POST', '/automations', 201, made.data);
    const id = made.data!.id;
    const got = await resend.automations.get(id);
    expect(got.data).toMatchObject({ object: 'automation', id, name: 'Welcome', status: 'disabled', updated_at: null });
    expect(got.data!.steps.map((s) => s.key)).toEqual(['start', 'hello', 'wait', 'opened', 'tag', 'nudge']);
    expect(got.data!.steps[0]).toEqual({ key: 'start', type: 'trigger', config: { event_name: 'user.signed_up' } });
    expect(got.data!.steps[4]!.config).toEqual({ segment_id: segment });
    expect(got.data!.connections[0]).toEqual({ from: 'start', to: 'hello', type: 'default' });
    expectReferenceShape('GET', '/automations/{automation_id}', 200, got.data);

    expect((await resend.automations.update(id, { name: 'Welcome v2', status: 'enabled' })).data).toEqual({
      object: 'automation',
      id,
    });
    const list = await resend.automations.list({ status: 'enabled' });
    expect(list.data!.data.map((a) => [a.id, a.name, a.status])).toEqual([[id, 'Welcome v2', 'enabled']]);
    expectReferenceShape('GET', '/automations', 200, list.data);
    expect((await resend.automations.list({ status: 'disabled' })).data!.data).toEqual([]);

    const copy = await resend.automations.duplicate(id);
    expect(copy.data).toEqual({ object: 'automation', id: expect.any(String) });
    expect((await resend.automations.get(copy.data!.id)).data).toMatchObject({
      name: 'Welcome v2 (copy)',
      status: 'disabled',
      steps: got.data!.steps,
    });

    const stopped = await resend.automations.stop(id);
    expect(stopped.data).toEqual({ object: 'automation', id, status: 'disabled' });
    expectReferenceShape('POST', '/automations/{automation_id}/stop', 200, stopped.data);
    expect((await resend.automations.get(id)).data!.status).toBe('disabled');

    const runs = await resend.automations.runs.list({ automationId: id, status: ['running', 'failed'] });
    expect(runs.data).toEqual({ object: 'list', has_more: false, data: [] });
    expect(
      (await resend.automations.runs.get({ automationId: id, runId: '0195f0a4-9a7e-7000-8000-000000000000' })).error,
    ).toMatchObject({ statusCode: 404 });

    expect((await resend.automations.remove(id)).data).toEqual({ object: 'automation', id, deleted: true });
    expect((await resend.automations.get(id)).error).toMatchObject({ statusCode: 404, name: 'not_found' });
    const other = await newTeam();
    expect((await other.resend.automations.get(copy.data!.id)).error).toMatchObject({ statusCode: 404 });
    expect((await other.resend.automations.runs.list({ automationId: copy.data!.id })).error).toMatchObject({
      statusCode: 404,
    });
  });

  it('refuses a graph that cannot run with 422 naming the step', async () => {
    const { resend, secret, welcome, template } = await setup();
    const refused = async (options: CreateAutomationOptions, named: string) => {
      const { error } = await resend.automations.create(options);
      expect(error, named).toMatchObject({ statusCode: 422, name: 'validation_error' });
      expect(error!.message, named).toContain(named);
    };
    const base = welcome();
    // No trigger; two triggers.
    await refused({ ...base, steps: base.steps.slice(1), connections: base.connections.slice(1) }, 'trigger');
    await refused(welcome([{ key: 'again', type: 'trigger', config: { eventName: 'x' } }]), 'exactly one `trigger`');
    // A connection type its step does not allow.
    await refused(
      { ...base, connections: [...base.connections.slice(0, 3), { from: 'opened', to: 'tag' }] },
      '`opened`',
    );
    // An unreachable step.
    await refused(welcome([{ key: 'orphan', type: 'delay', config: { duration: '1 hour' } }]), '`orphan`');
    // A cycle with no delay or wait.
    await refused(
      {
        ...base,
        steps: [...base.steps, { key: 'loop', type: 'contact_update', config: { firstName: 'x' } }],
        connections: [...base.connections, { from: 'tag', to: 'loop' }, { from: 'loop', to: 'tag' }],
      },
      'cycle',
    );
    // A template and a segment that do not exist; a bad duration; a bad rule.
    await refused(
      welcome([{ key: 'ghost', type: 'send_email', config: { template: { id: 'no-such-template' } } }]),
      '`ghost`',
    );
    await refused(
      {
        ...base,
        steps: base.steps.map((s) =>
          s.key === 'tag'
            ? { key: 'tag', type: 'add_to_segment', config: { segmentId: '0195f0a4-9a7e-7000-8000-000000000000' } }
            : s,
        ),
      },
      '`tag`',
    );
    await refused(
      {
        ...base,
        steps: base.steps.map((s) =>
          s.key === 'wait' ? { key: 'wait', type: 'delay', config: { duration: 'soon' } } : s,
        ),
      },
      '`wait`',
    );
    await refused(
      {
        ...base,
        steps: base.steps.map((s) =>
          s.key === 'wait' ? { key: 'wait', type: 'delay', config: { duration: '400 days' } } : s,
        ),
      },
      '365 days',
    );
    await refused(
      {
        ...base,
        steps: base.steps.map((s) =>
          s.key === 'opened'
            ? { key: 'opened', type: 'condition', config: { type: 'rule', field: 'x', operator: 'eq', value: 1 } }
            : s,
        ),
      },
      '`opened`',
    );
    // Steps and connections come together on update.
    const id = (await resend.automations.create(base)).data!.id;
    const res = await call('PATCH', `/automations/${id}`, { key: secret, body: { steps: [] } });
    expect(res.status).toBe(422);
    expect(template).toBeTruthy();
  });
});
