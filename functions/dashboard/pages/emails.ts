import type { Hono } from 'hono';
import { html } from 'hono/html';
import { getEmail, getEmailWithBodies } from '@mailstack/core/domain/emails/get-email';
import { listEmails } from '@mailstack/core/domain/emails/list-emails';
import { displayedStatus } from '@mailstack/core/domain/emails/email-view';
import { composeMessage } from '@mailstack/core/domain/emails/pipeline/compose-message';
import { attachmentParts } from '@mailstack/core/domain/emails/email-content';
import { LAST_EVENTS, type EmailItem } from '@mailstack/core/domain/emails/email';
import type { DashboardEnv } from '../app.ts';
import { registerEmailDetail } from './email-detail.ts';
import { badge, sandboxedHtml, table, teamPage, when } from '../view.ts';

/** Newest emails read per filtered page (filters apply to these). */
const SCAN = 500;
/** Emails shown per page. */
const PAGE = 50;

export const registerEmails = (app: Hono<DashboardEnv>): void => {
  app.get('/t/:team/emails', async (c) => {
    const deps = c.get('deps');
    const teamId = c.get('actor').team.id;
    const q = {
      status: c.req.query('status') ?? '',
      to: (c.req.query('to') ?? '').trim().toLowerCase(),
      from: c.req.query('from') ?? '',
      until: c.req.query('until') ?? '',
    };
    const match = (e: EmailItem) =>
      (!q.status || displayedStatus(e) === q.status) &&
      (!q.to || [...e.to, ...e.cc, ...e.bcc].some((a) => a.toLowerCase().includes(q.to))) &&
      (!q.from || e.created_at.slice(0, 10) >= q.from) &&
      (!q.until || e.created_at.slice(0, 10) <= q.until);
    const shown: EmailItem[] = [];
    let after = /^[0-9a-f-]{36}$/.test(c.req.query('after') ?? '') ? c.req.query('after') : undefined;
    // Reads newest first from `after` until a page is full or SCAN emails were read; the next
    // page starts after the last email looked at (the last shown, when the page filled up).
    let more = true;
    for (let scanned = 0; more && shown.length < PAGE && scanned < SCAN; scanned += 100) {
      const page = await listEmails(deps, teamId, { limit: 100, after });
      more = page.hasMore;
      for (const [n, e] of page.items.entries()) {
        after = e.id;
        if (match(e)) shown.push(e);
        if (shown.length === PAGE) {
          more ||= n < page.items.length - 1;
          break;
        }
      }
    }
    const next = more && after ? `?${new URLSearchParams({ ...q, after }).toString()}` : undefined;
    const t = `/t/${teamId}`;
    return c.html(
      teamPage(
        c.get('ctx'),
        'Emails',
        html`
<form method="get" class="row" role="search" aria-label="Filter emails">
<label>Status <select name="status"><option value="">any</option>${LAST_EVENTS.map((s) => html`<option${s === q.status ? html` selected` : ''}>${s}</option>`)}</select></label>
<label>Recipient <input name="to" value="${q.to}" placeholder="jane@example.com"></label>
<label>From date <input type="date" name="from" value="${q.from}"></label><label>To date <input type="date" name="until" value="${q.until}"></label>
<button>Filter</button></form>
${table(
  'Emails',
  ['Status', 'To', 'Subject', 'Sent'],
  shown.map(
    (e) =>
      html`<tr><td>${badge(displayedStatus(e))}</td><td>${e.to.join(', ')}</td><td><a href="${t}/emails/${e.id}">${e.subject || '(no subject)'}</a></td><td>${when(e.created_at)}</td></tr>`,
  ),
  'No emails match.',
)}
${next ? html`<p class="pager"><a href="${next}">Older emails</a></p>` : ''}`,
      ),
    );
  });

  registerEmailDetail(app);

  // The HTML body, for the sandboxed frame only: its own CSP (sandbox, nothing loads, no script).
  app.get('/t/:team/emails/:id/html', async (c) => {
    const e = await getEmailWithBodies(c.get('deps'), c.get('actor').team.id, c.req.param('id'));
    return sandboxedHtml(c, e.html ?? '');
  });

  // An attachment as it was sent: always a download, never rendered.
  app.get('/t/:team/emails/:id/attachments/:n{[0-9]+}', async (c) => {
    const e = await getEmail(c.get('deps'), c.get('actor').team.id, c.req.param('id'));
    const part = (await attachmentParts(c.get('deps'), e))[Number(c.req.param('n'))];
    if (!part) return c.notFound();
    return c.body(new Uint8Array(part.content), 200, {
      'content-type': 'application/octet-stream',
      'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(part.filename)}`,
      'x-content-type-options': 'nosniff',
    });
  });

  app.get('/t/:team/emails/:id/raw', async (c) => {
    const deps = c.get('deps');
    const e = await getEmail(deps, c.get('actor').team.id, c.req.param('id'));
    const mime = await composeMessage(deps, e, null);
    return c.body(mime.toString('utf8'), 200, {
      'content-type': 'text/plain; charset=utf-8',
      'content-disposition': `inline; filename="${e.id}.eml"`,
    });
  });
};
