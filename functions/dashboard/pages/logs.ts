import type { Hono } from 'hono';
import { html } from 'hono/html';
import { getRequestLog } from '@mailstack/core/domain/logs/get-request-log';
import { listRequestLogs } from '@mailstack/core/domain/logs/list-request-logs';
import type { RequestLog } from '@mailstack/core/domain/logs/request-log';
import { LOG_RETENTION_DAYS } from '@mailstack/core/limits';
import type { DashboardEnv } from '../app.ts';
import { table, teamPage, when } from '../view.ts';

/** Newest logs read per filtered page (filters apply to these). */
const SCAN = 500;
const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;
const STATUS_CLASSES = ['2xx', '4xx', '5xx'] as const;

/** A body as the page shows it: indented JSON, escaped by the template. */
const pretty = (body: unknown): string => (body === null ? '(none)' : JSON.stringify(body, null, 2));

/** The answer's status, coloured by class: success, refused (4xx), failed (5xx). */
const statusBadge = (status: number) =>
  html`<span class="badge ${status < 400 ? 'active' : status < 500 ? 'pending' : 'failed'}">${status}</span>`;

export const registerLogs = (app: Hono<DashboardEnv>): void => {
  app.get('/t/:team/logs', async (c) => {
    const deps = c.get('deps');
    const teamId = c.get('actor').team.id;
    const q = {
      method: (METHODS as readonly string[]).includes(c.req.query('method') ?? '') ? c.req.query('method')! : '',
      status: (STATUS_CLASSES as readonly string[]).includes(c.req.query('status') ?? '') ? c.req.query('status')! : '',
      endpoint: (c.req.query('endpoint') ?? '').trim(),
    };
    const match = (l: RequestLog) =>
      (!q.method || l.method === q.method) &&
      (!q.status || `${String(l.status)[0]}xx` === q.status) &&
      (!q.endpoint || l.endpoint.includes(q.endpoint));
    const shown: RequestLog[] = [];
    let after = /^[0-9a-f-]{36}$/.test(c.req.query('after') ?? '') ? c.req.query('after') : undefined;
    let more = true;
    for (let scanned = 0; more && shown.length < 50 && scanned < SCAN; scanned += 100) {
      const page = await listRequestLogs(deps, teamId, { limit: 100, after });
      for (const l of page.items) if (shown.length < 50 && match(l)) shown.push(l);
      more = page.hasMore;
      after = page.items.at(-1)?.id;
    }
    const next = more && after ? `?${new URLSearchParams({ ...q, after }).toString()}` : undefined;
    const t = `/t/${teamId}`;
    return c.html(
      teamPage(
        c.get('ctx'),
        'Logs',
        html`
<p class="muted">Every API request of the team, newest first, kept ${LOG_RETENTION_DAYS} days; secrets and attachment content are redacted.</p>
<form method="get" class="row" role="search" aria-label="Filter logs">
<label>Method <select name="method"><option value="">any</option>${METHODS.map((m) => html`<option${m === q.method ? html` selected` : ''}>${m}</option>`)}</select></label>
<label>Status <select name="status"><option value="">any</option>${STATUS_CLASSES.map((s) => html`<option${s === q.status ? html` selected` : ''}>${s}</option>`)}</select></label>
<label>Endpoint <input name="endpoint" value="${q.endpoint}" placeholder="/emails"></label>
<button>Filter</button></form>
${table(
  'Request logs',
  ['Status', 'Method', 'Endpoint', 'When'],
  shown.map(
    (l) =>
      html`<tr><td>${statusBadge(l.status)}</td><td>${l.method}</td><td><a href="${t}/logs/${l.id}">${l.endpoint}</a></td><td>${when(l.createdAt)}</td></tr>`,
  ),
  'No requests match.',
)}
${next ? html`<p class="pager"><a href="${next}">Older requests</a></p>` : ''}`,
      ),
    );
  });

  app.get('/t/:team/logs/:id', async (c) => {
    const l = await getRequestLog(c.get('deps'), c.get('actor').team.id, c.req.param('id'));
    return c.html(
      teamPage(
        c.get('ctx'),
        `${l.method} ${l.endpoint}`,
        html`
<div class="card"><p>Status: ${statusBadge(l.status)}</p>
<dl><dt>When</dt><dd>${when(l.createdAt)}</dd><dt>User agent</dt><dd>${l.userAgent ?? '(none)'}</dd><dt>Id</dt><dd><code>${l.id}</code></dd></dl></div>
<h2 id="request-body">Request body</h2><pre tabindex="0" aria-labelledby="request-body">${pretty(l.requestBody)}</pre>
<h2 id="response-body">Response body</h2><pre tabindex="0" aria-labelledby="response-body">${pretty(l.responseBody)}</pre>`,
      ),
    );
  });
};
