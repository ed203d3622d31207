import type { Hono } from 'hono';
import { html } from 'hono/html';
import { automationRow, getAutomation, graphOf } from '@mailstack/core/domain/automations/automation';
import { listAutomations } from '@mailstack/core/domain/automations/list-automations';
import { listRuns } from '@mailstack/core/domain/automations/list-runs';
import { runRow, stepCounts } from '@mailstack/core/domain/automations/run';
import type { DashboardEnv, Ctx } from '../app.ts';
import { badge, button, table, teamPage, when } from '../view.ts';
import { flowOf } from './automation-flow.ts';
import { registerAutomationRuns, contactCell, mayChangeAutomations, NOTICES } from './automation-runs.ts';

const UUID = /^[0-9a-f-]{36}$/;

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
    html`<p class="muted">Automations are made and their steps changed through the API (<code>automations.create</code>) or the MCP tools; here they are read, enabled, disabled and stopped.</p>
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

/** One automation: its graph drawn as a flow with how many runs ended each step how, its latest runs, and (for those allowed) enable, disable and stop. */
const automationPage = async (c: Ctx) => {
  const actor = c.get('actor');
  const deps = c.get('deps');
  const { csrf } = c.get('ctx');
  const a = await getAutomation(deps, actor.team.id, c.req.param('id')!);
  const [graph, counts, runs] = await Promise.all([
    graphOf(deps, actor.team.id, a.id, a.versionId),
    stepCounts(deps, actor.team.id, a.id),
    listRuns(deps, actor.team.id, a.id, { limit: 20 }, undefined),
  ]);
  const base = `/t/${actor.team.id}/automations/${a.id}`;
  const notice = NOTICES[c.req.query('notice') ?? ''];
  const contacts = await Promise.all(runs.items.map((r) => contactCell(c, r.contactId)));
  return teamPage(
    c.get('ctx'),
    a.name,
    html`<p><a href="/t/${actor.team.id}/automations">All automations</a></p>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
<div class="card"><p>Status ${badge(a.status)} · Created ${when(a.createdAt)} · Updated ${when(a.updatedAt)}</p>
<dl><dt>Id</dt><dd><code>${a.id}</code></dd><dt>Trigger</dt><dd><code>${a.triggerEvent}</code></dd></dl>
${
  mayChangeAutomations(actor.role)
    ? html`<div class="actions">${
        a.status === 'enabled'
          ? button(csrf, `${base}/disable`, 'Disable', 'secondary')
          : button(csrf, `${base}/enable`, 'Enable', '')
      } ${button(csrf, `${base}/stop`, 'Stop and cancel running runs', 'danger')}</div>
<p class="muted">Disabling starts no new runs and lets running ones finish; stopping also cancels the running ones.</p>`
    : html`<p class="muted">Your role (${actor.role}) may read automations but not enable, disable or stop them.</p>`
}</div>
<h2>Steps</h2>
${flowOf(graph, counts)}
<h2>Latest runs</h2>
${table(
  'Latest runs',
  ['Run', 'Contact', 'Status', 'Started', 'Ended'],
  runs.items.map((run, n) => {
    const r = runRow(run);
    return html`<tr><td><a href="${base}/runs/${r.id}"><code>${r.id}</code></a></td><td>${contacts[n]}</td><td>${badge(r.status)}</td><td>${when(r.started_at)}</td><td>${when(r.completed_at)}</td></tr>`;
  }),
  'No runs yet: send the trigger event for a contact.',
)}`,
  );
};

/** The automations pages: a list, one automation's flow with its step counts, runs and controls, and each run. */
export const registerAutomations = (app: Hono<DashboardEnv>): void => {
  app.get('/t/:team/automations', async (c) => c.html(await listPage(c)));
  app.get('/t/:team/automations/:id', async (c) => c.html(await automationPage(c)));
  registerAutomationRuns(app);
};
