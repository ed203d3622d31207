import { describe, expect, it } from 'vitest';
import type { AutomationStep, CreateAutomationOptions } from 'resend';
import { call, newTeam } from '../support/local.ts';
import { expectReferenceShape } from '../support/openapi.ts';
import { sendingTeam } from '../support/sending.ts';
import { emailReaches, waitFor } from '../support/wait.ts';
import { personIn, signInOverHttp } from '../support/dashboard.ts';
import { mcpHarness, resultJson, scopeRefusal } from '../support/mcp.ts';

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

describe('automation runs', () => {
  it('resumes a wait_for_event run on the event and takes the timeout branch without it, sending through the send rules', async () => {
    const t = await sendingTeam();
    const template = (
      await t.resend.templates.create({ name: 'Note', from: t.from, subject: 'Note', html: '<p>{{{KIND}}}</p>' } as any)
    ).data!.id;
    const send = (key: string, kind: string): AutomationStep => ({
      key,
      type: 'send_email',
      config: { template: { id: template, variables: { KIND: kind } }, subject: kind },
    });
    const { data } = await t.resend.automations.create({
      name: 'Trial',
      status: 'enabled',
      steps: [
        { key: 'start', type: 'trigger', config: { eventName: 'trial.started' } },
        {
          key: 'paid',
          type: 'wait_for_event',
          config: {
            eventName: 'order.paid',
            timeout: '8 seconds',
            filterRule: { type: 'rule', field: 'event.amount', operator: 'gt', value: 0 },
          },
        },
        send('thanks', 'thanks'),
        send('remind', 'reminder'),
      ],
      connections: [
        { from: 'start', to: 'paid' },
        { from: 'paid', to: 'thanks', type: 'event_received' },
        { from: 'paid', to: 'remind', type: 'timeout' },
      ],
    });
    const id = data!.id;
    const payer = (await t.resend.contacts.create({ email: `payer@${t.domain}` })).data!.id;
    await t.resend.contacts.create({ email: `browser@${t.domain}` });
    expect((await t.resend.events.send({ event: 'trial.started', contactId: payer })).data).toMatchObject({
      event: 'trial.started',
    });
    await t.resend.events.send({ event: 'trial.started', email: `browser@${t.domain}` });
    const runs = await waitFor(
      async () => (await t.resend.automations.runs.list({ automationId: id })).data!.data,
      (list) => list.length === 2,
      { what: 'two runs' },
    );
    // Both runs wait (the waiting index holds them); then for the payer an event failing the filter does not resume it, one passing it does.
    for (const r of runs)
      await waitFor(
        async () => (await t.resend.automations.runs.get({ automationId: id, runId: r.id })).data!.steps,
        (steps) => steps[1]?.status === 'waiting',
        { what: `run ${r.id} waiting for order.paid` },
      );
    await t.resend.events.send({ event: 'order.paid', contactId: payer, payload: { amount: 0 } });
    await t.resend.events.send({ event: 'order.paid', contactId: payer, payload: { amount: 49 } });
    const done = await waitFor(
      async () => (await t.resend.automations.runs.list({ automationId: id, status: 'completed' })).data!.data,
      (list) => list.length === 2,
      { what: 'both runs completed (one by the event, one by the timeout)', timeoutMs: 60_000 },
    );
    expectReferenceShape('GET', '/automations/{automation_id}/runs', 200, {
      object: 'list',
      has_more: false,
      data: done,
    });
    const paths = [];
    for (const r of runs) {
      const run = (await t.resend.automations.runs.get({ automationId: id, runId: r.id })).data!;
      expectReferenceShape('GET', '/automations/{automation_id}/runs/{run_id}', 200, run);
      expect(run).toMatchObject({ object: 'automation_run', id: r.id, status: 'completed' });
      paths.push(run.steps.map((s) => `${s.key}:${s.status}`).join(' '));
      const sent = run.steps.at(-1)!.output as { email_id: string };
      const email = await emailReaches(t.resend, sent.email_id, ['delivered']);
      expect(email.tags).toEqual(
        expect.arrayContaining([
          { name: 'automation_id', value: id },
          { name: 'automation_run_id', value: r.id },
        ]),
      );
      expect(run.steps[1]!.output).toMatchObject(
        run.steps[2]!.key === 'thanks' ? { branch: 'event_received', payload: { amount: 49 } } : { branch: 'timeout' },
      );
    }
    expect(paths.sort()).toEqual([
      'start:completed paid:completed remind:completed',
      'start:completed paid:completed thanks:completed',
    ]);
  });

  it('keeps a running run on the graph it started on when the automation is edited; new runs take the new one', async () => {
    const t = await newTeam();
    const graph = (name: string): Pick<CreateAutomationOptions, 'steps' | 'connections'> => ({
      steps: [
        { key: 'start', type: 'trigger', config: { eventName: 'edit.me' } },
        { key: 'wait', type: 'delay', config: { duration: '2 seconds' } },
        { key: 'name', type: 'contact_update', config: { firstName: name } },
      ],
      connections: [
        { from: 'start', to: 'wait' },
        { from: 'wait', to: 'name' },
      ],
    });
    const id = (await t.resend.automations.create({ name: 'Edited', status: 'enabled', ...graph('first') })).data!.id;
    await t.resend.contacts.create({ email: 'early@example.com' });
    await t.resend.contacts.create({ email: 'late@example.com' });
    await t.resend.events.send({ event: 'edit.me', email: 'early@example.com' });
    await waitFor(
      async () => (await t.resend.automations.runs.list({ automationId: id })).data!.data,
      (list) => list.length === 1,
      { what: 'the first run' },
    );
    expect((await t.resend.automations.update(id, graph('second'))).data).toEqual({ object: 'automation', id });
    // A graph of the trigger alone: `connections: []` is that graph, not `connections` left out.
    const bare = await call('PATCH', `/automations/${id}`, {
      key: t.secret,
      body: { steps: [{ key: 'start', type: 'trigger', config: { event_name: 'never.sent' } }], connections: [] },
    });
    expect(bare.status).toBe(200);
    expect((await t.resend.automations.get(id)).data).toMatchObject({
      steps: [{ key: 'start', type: 'trigger' }],
      connections: [],
    });
    expect((await t.resend.automations.update(id, graph('second'))).data).toEqual({ object: 'automation', id });
    await t.resend.events.send({ event: 'edit.me', email: 'late@example.com' });
    await waitFor(
      async () => (await t.resend.automations.runs.list({ automationId: id, status: 'completed' })).data!.data,
      (list) => list.length === 2,
      { what: 'both runs completed', timeoutMs: 30_000 },
    );
    expect((await t.resend.contacts.get({ email: 'early@example.com' })).data!.first_name).toBe('first');
    expect((await t.resend.contacts.get({ email: 'late@example.com' })).data!.first_name).toBe('second');
  });

  it('skips the send step for an unsubscribed or suppressed contact, and the run goes on', async () => {
    const t = await sendingTeam();
    const template = (
      await t.resend.templates.create({ name: 'Promo', from: t.from, subject: 'Promo', html: '<p>Hi</p>' } as any)
    ).data!.id;
    const { data } = await t.resend.automations.create({
      name: 'Promo',
      status: 'enabled',
      steps: [
        { key: 'start', type: 'trigger', config: { eventName: 'promo.go' } },
        { key: 'mail', type: 'send_email', config: { template: { id: template } } },
        { key: 'after', type: 'contact_update', config: { lastName: 'reached' } },
      ],
      connections: [
        { from: 'start', to: 'mail' },
        { from: 'mail', to: 'after' },
      ],
    });
    const gone = `gone@${t.domain}`;
    const blocked = `blocked@${t.domain}`;
    await t.resend.contacts.create({ email: gone, unsubscribed: true });
    await t.resend.contacts.create({ email: blocked });
    await call('POST', '/suppressions', { key: t.secret, body: { email: blocked } });
    for (const email of [gone, blocked]) await t.resend.events.send({ event: 'promo.go', email });
    const runs = await waitFor(
      async () => (await t.resend.automations.runs.list({ automationId: data!.id, status: 'completed' })).data!.data,
      (list) => list.length === 2,
      { what: 'both runs completed' },
    );
    for (const r of runs) {
      const run = (await t.resend.automations.runs.get({ automationId: data!.id, runId: r.id })).data!;
      expect(run.steps.map((s) => `${s.key}:${s.status}`)).toEqual([
        'start:completed',
        'mail:skipped',
        'after:completed',
      ]);
    }
    expect((await t.resend.contacts.get({ email: gone })).data!.last_name).toBe('reached');
  });

  it('ends running runs on stop, and starts nothing while disabled', async () => {
    const t = await sendingTeam();
    const { data } = await t.resend.automations.create({
      name: 'Long wait',
      status: 'enabled',
      steps: [
        { key: 'start', type: 'trigger', config: { eventName: 'signed.up' } },
        { key: 'wait', type: 'delay', config: { duration: '30 days' } },
      ],
      connections: [{ from: 'start', to: 'wait' }],
    });
    const c = (await t.resend.contacts.create({ email: `stop@${t.domain}` })).data!.id;
    // A retry with the same Idempotency-Key is the same event: one run.
    for (let i = 0; i < 2; i++)
      expect(
        (
          await t.resend.events.send(
            { event: 'signed.up', contactId: c },
            { headers: { 'Idempotency-Key': `signup-${c}` } },
          )
        ).data,
      ).toEqual({ object: 'event', event: 'signed.up' });
    await waitFor(
      async () => (await t.resend.automations.runs.list({ automationId: data!.id, status: 'running' })).data!.data,
      (list) => list.length === 1,
    );
    await new Promise((r) => setTimeout(r, 1000));
    expect((await t.resend.automations.runs.list({ automationId: data!.id })).data!.data).toHaveLength(1);
    // Runs are counted on the team's usage.
    expect((await call('GET', '/usage', { key: t.secret })).json.today).toMatchObject({ automation_runs: 1 });
    await t.resend.automations.stop(data!.id);
    const [run] = (await t.resend.automations.runs.list({ automationId: data!.id })).data!.data;
    expect(run).toMatchObject({ status: 'cancelled', completed_at: expect.any(String) });
    await t.resend.events.send({ event: 'signed.up', contactId: c });
    await new Promise((r) => setTimeout(r, 1000));
    expect((await t.resend.automations.runs.list({ automationId: data!.id })).data!.data).toHaveLength(1);
  });
});

describe('automations on the dashboard', () => {
  it('lists the automations and shows one graph read only, with how many runs ended each step', async () => {
    const t = await newTeam();
    const { data } = await t.resend.automations.create({
      name: 'Tagger',
      status: 'enabled',
      steps: [
        { key: 'start', type: 'trigger', config: { eventName: 'plan.upgraded' } },
        { key: 'mark', type: 'contact_update', config: { properties: {}, firstName: { var: 'event.name' } } },
      ],
      connections: [{ from: 'start', to: 'mark' }],
    });
    for (const email of ['d1@example.com', 'd2@example.com']) {
      await t.resend.contacts.create({ email });
      await t.resend.events.send({ event: 'plan.upgraded', email, payload: { name: 'Ada' } });
    }
    await waitFor(
      async () => (await t.resend.automations.runs.list({ automationId: data!.id, status: 'completed' })).data!.data,
      (list) => list.length === 2,
      { what: 'two completed runs' },
    );
    expect((await t.resend.contacts.get({ email: 'd1@example.com' })).data).toMatchObject({ first_name: 'Ada' });
    const s = await signInOverHttp((await personIn(t.team.id, 'member')).link);
    const list = await (await s.get(`/t/${t.team.id}/automations`)).text();
    expect(list).toContain('Tagger');
    expect(list).toContain(`/t/${t.team.id}/automations/${data!.id}`);
    const page = await (await s.get(`/t/${t.team.id}/automations/${data!.id}`)).text();
    expect(page).toContain('when plan.upgraded is sent');
    // The update step, drawn as a box leading to the end, ended twice, completed.
    expect(page).toMatch(
      /<code class="step-key">mark<\/code>\s*<span class="step-does">update the contact[^<]*<\/span>\s*<span class="step-counts">2 completed · 0 skipped · 0 failed<\/span><\/div><\/li><li class="flow-end">end<\/li>/,
    );
    expect((await s.get(`/t/${(await newTeam()).team.id}/automations`)).status).not.toBe(200);
  });
});

describe('automations through the hosted MCP server', () => {
  const mcp = mcpHarness();

  it('serves events and automations as tools under automations:read and automations:write', async () => {
    const agent = await mcp.signIn(['automations:read', 'automations:write']);
    const listed = (await agent.client.listTools()).tools.map((x) => x.name).sort();
    expect(listed).toEqual(
      [
        'create_automation',
        'create_event',
        'delete_automation',
        'delete_event',
        'duplicate_automation',
        'get_automation',
        'get_automation_run',
        'get_event',
        'list_automation_runs',
        'list_automations',
        'list_events',
        'send_event',
        'stop_automation',
        'update_automation',
        'update_event',
      ].sort(),
    );
    const tool = async (name: string, args: Record<string, unknown>) =>
      resultJson(await agent.client.callTool({ name, arguments: args }));
    expect(await tool('create_event', { name: 'agent.seen', schema: { score: 'number' } })).toMatchObject({
      object: 'event',
    });
    const made = await tool('create_automation', {
      name: 'Agent made',
      status: 'enabled',
      steps: [
        { key: 'start', type: 'trigger', config: { event_name: 'agent.seen' } },
        { key: 'name', type: 'contact_update', config: { first_name: { var: 'event.who' } } },
      ],
      connections: [{ from: 'start', to: 'name' }],
    });
    expect(made).toMatchObject({ object: 'automation', id: expect.any(String) });
    await agent.resend.contacts.create({ email: `mcp@${agent.domain}` });
    expect(
      await tool('send_event', { event: 'agent.seen', email: `mcp@${agent.domain}`, payload: { who: 'Grace' } }),
    ).toEqual({
      object: 'event',
      event: 'agent.seen',
    });
    const runs = await waitFor(
      async () => await tool('list_automation_runs', { id: made.id, status: 'completed' }),
      (page) => page.data?.length === 1,
      { what: 'the run the agent started' },
    );
    expect(await tool('get_automation_run', { id: made.id, run_id: runs.data[0].id })).toMatchObject({
      object: 'automation_run',
      status: 'completed',
    });
    expect((await agent.resend.contacts.get({ email: `mcp@${agent.domain}` })).data!.first_name).toBe('Grace');

    const reader = await mcp.signIn(['automations:read']);
    await expect(reader.client.callTool({ name: 'stop_automation', arguments: { id: made.id } })).rejects.toMatchObject(
      scopeRefusal('automations:write'),
    );
  });
});
