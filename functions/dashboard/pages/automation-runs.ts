import type { Hono } from 'hono';
import { html } from 'hono/html';
import { validate } from '@mailstack/core/schemas/validate';
import { UpdateAutomationRequest } from '@mailstack/core/schemas/automations';
import { getAutomation, graphOf } from '@mailstack/core/domain/automations/automation';
import { updateAutomation } from '@mailstack/core/domain/automations/update-automation';
import { stopAutomation } from '@mailstack/core/domain/automations/stop-automation';
import { getRun, stepsOf, type RunStep } from '@mailstack/core/domain/automations/run';
import { findContact } from '@mailstack/core/domain/contacts/contact';
import { roleMayGrant } from '@mailstack/core/domain/oauth/scopes';
import type { Role } from '@mailstack/core/domain/people/roles';
import { ApiError } from '@mailstack/core/errors/api-error';
import type { DashboardEnv, Ctx } from '../app.ts';
import { badge, table, teamPage, when } from '../view.ts';
import { describeStep, STEP_WORDS } from './automation-flow.ts';

/**
 * Who may enable, disable and stop automations in the dashboard: the people who may grant the
 * hosted MCP server's `automations:write` (an automation mails contacts, as a broadcast does).
 */
export const mayChangeAutomations = (role: Role): boolean => roleMayGrant(role, 'automations:write');

/** The notices of the automation page after a change (a code in the URL, never text from it). */
export const NOTICES: Readonly<Record<string, string>> = {
  enabled: 'Enabled: the trigger event now starts runs.',
  disabled: 'Disabled: no new runs start; running ones finish.',
  stopped: 'Stopped: disabled, and its running runs are cancelled.',
};

/** A run's contact: its address and name, or the id of a contact deleted since. */
export const contactCell = async (c: Ctx, contactId: string) => {
  const contact = await findContact(c.get('deps'), c.get('actor').team.id, contactId);
  if (!contact) return html`<span class="muted">deleted contact <code>${contactId}</code></span>`;
  const name = [contact.firstName, contact.lastName].filter(Boolean).join(' ');
  return html`${contact.email}${name ? html` <span class="muted">(${name})</span>` : ''}`;
};

const BRANCH: Readonly<Record<string, string>> = {
  condition_met: 'the condition was met',
  condition_not_met: 'the condition was not met',
  event_received: 'the event came',
  timeout: 'the wait timed out',
};

/** What a step of a run did, in words: the branch taken, the email sent, the reason it was skipped, when a wait ended. */
const outcomeOf = (teamId: string, s: RunStep) => {
  const o = s.output ?? {};
  const parts = [
    typeof o.branch === 'string' && BRANCH[o.branch] ? html`${BRANCH[o.branch]}` : '',
    typeof o.email_id === 'string' ? html`sent <a href="/t/${teamId}/emails/${o.email_id}">the email</a>` : '',
    typeof o.skipped === 'string' ? html`skipped: ${o.skipped}` : '',
    typeof o.waited_until === 'string' ? html`waited until ${when(o.waited_until)}` : '',
    typeof o.event === 'string' ? html`started by ${o.event}` : '',
  ].filter((p) => p !== '');
  const error = s.error
    ? html`<span class="error-text">${String(s.error.name ?? 'error')}: ${String(s.error.message ?? '')}</span>`
    : '';
  return parts.length || error
    ? html`<span>${parts.map((p, n) => html`${n ? '; ' : ''}${p}`)}${error}</span>`
    : html`<span class="muted">none</span>`;
};

/** A run: its contact, status and times, the event that started it, and each step it took with its outcome. */
const runPage = async (c: Ctx) => {
  const deps = c.get('deps');
  const teamId = c.get('actor').team.id;
  const a = await getAutomation(deps, teamId, c.req.param('id') ?? '');
  const run = await getRun(deps, teamId, a.id, c.req.param('run') ?? '');
  const [steps, graph, contact] = await Promise.all([
    stepsOf(deps, teamId, run.id),
    graphOf(deps, teamId, a.id, run.versionId),
    contactCell(c, run.contactId),
  ]);
  const config = new Map(graph.steps.map((s) => [s.key, s]));
  return teamPage(
    c.get('ctx'),
    `Run of ${a.name}`,
    html`<p><a href="/t/${teamId}/automations/${a.id}">Back to ${a.name}</a></p>
<div class="card"><dl><dt>Contact</dt><dd>${contact}</dd><dt>Status</dt><dd>${badge(run.status)}</dd>
<dt>Started</dt><dd>${when(run.startedAt)}</dd><dt>Ended</dt><dd>${when(run.completedAt)}</dd><dt>Run id</dt><dd><code>${run.id}</code></dd></dl></div>
<h2>Steps taken</h2>
${table(
  'Steps taken',
  ['#', 'Step', 'Does', 'Status', 'Outcome', 'Started', 'Ended'],
  steps.map((s, n) => {
    const step = config.get(s.key);
    return html`<tr><td>${n + 1}</td><td><span>${STEP_WORDS[s.type] ?? s.type} <code class="step-key">${s.key}</code></span></td><td>${step ? describeStep(step.type, step.config) : ''}</td><td>${badge(s.status)}</td><td>${outcomeOf(teamId, s)}</td><td>${when(s.startedAt)}</td><td>${when(s.completedAt)}</td></tr>`;
  }),
  'No step has run yet.',
)}
${Object.keys(run.payload).length ? html`<h2>Event payload</h2><pre><code>${JSON.stringify(run.payload, null, 2)}</code></pre>` : ''}`,
  );
};

/** The run page, and enable, disable and stop through the same use cases as PATCH /automations/{id} and POST .../stop. */
export const registerAutomationRuns = (app: Hono<DashboardEnv>): void => {
  app.get('/t/:team/automations/:id/runs/:run', async (c) => c.html(await runPage(c)));
  const guard = (c: Ctx) => {
    const { role } = c.get('actor');
    if (!mayChangeAutomations(role))
      throw new ApiError(
        'forbidden',
        `Your role in this team (${role}) does not allow enabling, disabling or stopping automations; ask an owner or admin of the team.`,
      );
  };
  for (const [action, status] of [
    ['enable', 'enabled'],
    ['disable', 'disabled'],
  ] as const) {
    app.post(`/t/:team/automations/:id/${action}`, async (c) => {
      guard(c);
      const teamId = c.get('actor').team.id;
      const a = await updateAutomation(
        c.get('deps'),
        teamId,
        c.req.param('id'),
        validate(UpdateAutomationRequest, { status }),
      );
      return c.redirect(`/t/${teamId}/automations/${a.id}?notice=${status}`, 303);
    });
  }
  app.post('/t/:team/automations/:id/stop', async (c) => {
    guard(c);
    const teamId = c.get('actor').team.id;
    const a = await stopAutomation(c.get('deps'), teamId, c.req.param('id'));
    return c.redirect(`/t/${teamId}/automations/${a.id}?notice=stopped`, 303);
  });
};
