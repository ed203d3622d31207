import type { Hono } from 'hono';
import { html } from 'hono/html';
import { automationRow, getAutomation, graphOf } from '@mailstack/core/domain/automations/automation';
import { listAutomations } from '@mailstack/core/domain/automations/list-automations';
import { listRuns } from '@mailstack/core/domain/automations/list-runs';
import { runRow, stepCounts } from '@mailstack/core/domain/automations/run';
import type { DashboardEnv, Ctx } from '../app.ts';
import { badge, table, teamPage, when } from '../view.ts';

const UUID = /^[0-9a-f-]{36}$/;

/** What a step does, in a line. */
const describe = (type: string, c: Record<string, any>): string => {
  switch (type) {
    case 'trigger':
      return `when ${c.event_name} is sent`;
    case 'send_email':
      return `send template ${c.template?.id}${c.subject ? ` ("${c.subject}")` : ''}`;
    case 'delay':
      return `wait ${c.duration}`;
    case 'wait_for_event':
      return `wait for ${c.event_name}${c.timeout ? `, at most ${c.timeout}` : ''}`;
    case 'condition':
      return c.type === 'rule'
        ? `if ${c.field} ${c.operator}${c.value === undefined ? '' : ` ${JSON.stringify(c.value)}`}`
        : `if ${c.type} of ${c.rules?.length} rules`;
    case 'contact_update':
      return `update the contact (${Object.keys(c).join(', ')})`;
    case 'contact_delete':
      return 'delete the contact';
    case 'add_to_segment':
      return `add to segment ${c.segment_id}`;
    default:
      return type;
  }
};

const listPage = async (c: Ctx) => {
  const actor = c.get('actor');
  const t = `/t/${actor.team.id}/automations`;
  const after = c.req.query('after');
  const { items: automations, hasMore } = await listAutomations(
    c.get('deps'),
    actor.team.id,
    { limit: 50, after: after && UUID.test(after) ? after : undefined },
    undefined,
  );
  const last = automations.at(-1)?.id;
  return teamPage(
    c.get('ctx'),
    'Automations',
    html`<p class="muted">Automations are made and changed through the API (<code>automations.create</code>) or the MCP tools; here they are read.</p>
${table(
  'Automations',
  ['Name', 'Status', 'Created', 'Updated'],
  automations
    .map(automationRow)
    .map(
      (a) =>
        html`<tr><td><a href="${t}/${a.id}">${a.name}</a></td><td>${badge(a.status)}</td><td>${when(a.created_at)}</td><td>${when(a.updated_at)}</td></tr>`,
    ),
  'No automations yet: create one with the API, triggered by an event you send with events.send.',
)}
${hasMore && last ? html`<p class="pager"><a href="${t}?after=${last}">More automations</a></p>` : ''}`,
  );
};

/** One automation: its graph as new runs take it, with how many runs ended each step how, and its latest runs. */
const automationPage = async (c: Ctx) => {
  const actor = c.get('actor');
  const deps = c.get('deps');
  const a = await getAutomation(deps, actor.team.id, c.req.param('id')!);
  const [graph, counts, runs] = await Promise.all([
    graphOf(deps, actor.team.id, a.id, a.versionId),
    stepCounts(deps, actor.team.id, a.id),
    listRuns(deps, actor.team.id, a.id, { limit: 20 }, undefined),
  ]);
  const out = (key: string) =>
    graph.connections
      .filter((x) => x.from === key)
      .map((x) => (x.type === 'default' ? x.to : `${x.to} (${x.type})`))
      .join(', ');
  return teamPage(
    c.get('ctx'),
    a.name,
    html`<p><a href="/t/${actor.team.id}/automations">All automations</a></p>
<div class="card"><p>Status ${badge(a.status)} · Created ${when(a.createdAt)} · Updated ${when(a.updatedAt)}</p>
<dl><dt>Id</dt><dd><code>${a.id}</code></dd><dt>Trigger</dt><dd><code>${a.triggerEvent}</code></dd></dl></div>
<h2>Steps</h2>
${table(
  'Steps',
  ['Step', 'Does', 'Then', 'Completed', 'Skipped', 'Failed'],
  graph.steps.map((s) => {
    const n = counts.get(s.key) ?? { completed: 0, skipped: 0, failed: 0 };
    return html`<tr><td><code>${s.key}</code></td><td>${describe(s.type, s.config)}</td><td>${out(s.key) || html`<span class="muted">end</span>`}</td><td>${n.completed}</td><td>${n.skipped}</td><td>${n.failed}</td></tr>`;
  }),
  'No steps.',
)}
<h2>Latest runs</h2>
${table(
  'Latest runs',
  ['Run', 'Status', 'Started', 'Ended'],
  runs.items
    .map(runRow)
    .map(
      (r) =>
        html`<tr><td><code>${r.id}</code></td><td>${badge(r.status)}</td><td>${when(r.started_at)}</td><td>${when(r.completed_at)}</td></tr>`,
    ),
  'No runs yet: send the trigger event for a contact.',
)}`,
  );
};

/** The automations pages: a list, and one automation's graph with its step counts and runs (read only). */
export const registerAutomations = (app: Hono<DashboardEnv>): void => {
  app.get('/t/:team/automations', async (c) => c.html(await listPage(c)));
  app.get('/t/:team/automations/:id', async (c) => c.html(await automationPage(c)));
};
