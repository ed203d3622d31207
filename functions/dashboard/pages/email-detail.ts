import type { Hono } from 'hono';
import { html } from 'hono/html';
import { getEmailWithBodies } from '@mailstack/core/domain/emails/get-email';
import { displayedStatus } from '@mailstack/core/domain/emails/email-view';
import { cancelEmail } from '@mailstack/core/domain/emails/cancel-email';
import { rescheduleEmail } from '@mailstack/core/domain/emails/reschedule-email';
import { listEmailShares, revokeEmailShare, shareEmail } from '@mailstack/core/domain/emails/share-email';
import { readParkedLine } from '@mailstack/core/domain/emails/pipeline/provider-line';
import { emailTimeline } from '@mailstack/core/domain/events/record-event';
import { teamNow } from '@mailstack/core/domain/teams/team';
import { allows, authorize } from '@mailstack/core/domain/people/roles';
import type { Actor } from '@mailstack/core/domain/people/membership';
import type { Caller } from '@mailstack/core/domain/caller';
import type { DashboardEnv, Ctx } from '../app.ts';
import { badge, button, field, orFormAgain, postForm, table, teamPage, when, whenRelative } from '../view.ts';
import { sourceOf, timeline, waitingReason } from './email-story.ts';

/** The caller a person acting on the dashboard stands for: their team, every permission their role allows. */
const dashboardCaller = (actor: Actor): Caller => ({
  team: actor.team,
  keyId: `dashboard:${actor.user.id}`,
  scope: 'full_access',
  domainId: null,
});

/** The durations a link may be made for from the page (the API takes any up to 48 hours). */
const SHARE_CHOICES = [
  ['1h', '1 hour'],
  ['24h', '24 hours'],
  ['48h', '48 hours'],
] as const;

/** The form's scheduled time as the reschedule takes it: a local `datetime-local` value is read as UTC unless it names a zone. */
const scheduleInput = (value: string | undefined) => {
  const v = (value ?? '').trim();
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(v) ? `${v}${v.length === 16 ? ':00' : ''}Z` : v;
};

/** An email's page: envelope, why it waits, its story, shared links, bodies; `error` and a new link shown once when given. */
const emailPage = async (c: Ctx, extra: { error?: string; newLink?: { url: string; expiresAt: string } } = {}) => {
  const deps = c.get('deps');
  const actor = c.get('actor');
  const teamId = actor.team.id;
  const e = await getEmailWithBodies(deps, teamId, c.req.param('id') ?? '');
  const [events, shares, team, line] = await Promise.all([
    emailTimeline(deps, teamId, e.id),
    listEmailShares(deps, teamId, e.id),
    teamNow(deps, actor.team),
    ['queued', 'sending'].includes(e.status) ? readParkedLine(deps, e.region) : undefined,
  ]);
  const now = deps.clock.now();
  const t = `/t/${teamId}`;
  const base = `${t}/emails/${e.id}`;
  const csrf = c.get('ctx').csrf;
  const may = allows(actor.role, 'emails:write');
  const waits = waitingReason(e, team, line, now);
  const list = (label: string, values: readonly string[]) =>
    values.length ? html`<dt>${label}</dt><dd>${values.join(', ')}</dd>` : '';
  return teamPage(
    c.get('ctx'),
    e.subject || '(no subject)',
    html`<p><a href="${t}/emails">← All emails</a></p>
${extra.error ? html`<p class="error" role="alert">${extra.error}</p>` : ''}
<div class="card"><p>Status: ${badge(displayedStatus(e))}</p>
${waits ? html`<p class="wait-reason"><strong>Why it waits:</strong> ${waits}</p>` : ''}
<dl><dt>From</dt><dd>${e.from}</dd>${list('To', e.to)}${list('Cc', e.cc)}${list('Bcc', e.bcc)}${list('Reply-To', e.reply_to)}
<dt>Sent by</dt><dd>${sourceOf(e, t)}</dd>
${e.tags.length ? html`<dt>Tags</dt><dd><ul class="tags">${e.tags.map((g) => html`<li><code>${g.name}: ${g.value}</code></li>`)}</ul></dd>` : ''}
<dt>Created</dt><dd>${whenRelative(e.created_at, now)}</dd>${e.scheduled_at ? html`<dt>Scheduled for</dt><dd>${whenRelative(e.scheduled_at, now)}</dd>` : ''}<dt>Id</dt><dd><code>${e.id}</code></dd></dl></div>
${
  e.status === 'scheduled' && may
    ? html`<h2>Schedule</h2><div class="card">${postForm(csrf, `${base}/reschedule`, html`${field('scheduled_at', 'New send time (UTC, or any ISO 8601 time or phrase such as "in 2 hours")', html`<input id="scheduled_at" name="scheduled_at" required value="${e.scheduled_at ?? ''}">`)}<button>Reschedule</button>`)}
${button(csrf, `${base}/cancel`, 'Cancel this scheduled email', 'danger')}</div>`
    : ''
}
<h2>Timeline</h2>${timeline(e, events, now)}
<h2>Shared links</h2>
${extra.newLink ? html`<p class="notice" role="status">Link created, valid until ${when(extra.newLink.expiresAt)}. Copy it now: it is not shown again. <code id="new-link">${extra.newLink.url}</code></p>` : ''}
${table(
  'Shared links',
  ['Created', 'Expires', ''],
  shares.map(
    (s) =>
      html`<tr><td>${whenRelative(s.createdAt, now)}</td><td>${whenRelative(s.expiresAt, now)}</td><td>${may ? button(csrf, `${base}/shares/${s.id}/revoke`, 'Revoke', 'danger', `Revoke the link created ${s.createdAt}`) : ''}</td></tr>`,
  ),
  'No active links: anyone with a link made for this email would see a read-only copy of it, until it expires or is revoked.',
)}
${may ? postForm(csrf, `${base}/shares`, html`${field('expires_in', 'Link works for', html`<select id="expires_in" name="expires_in">${SHARE_CHOICES.map(([v, label]) => html`<option value="${v}"${v === '48h' ? html` selected` : ''}>${label}</option>`)}</select>`)}<button class="secondary">Create a shared link</button>`) : ''}
${
  e.attachments.length
    ? html`<h2>Attachments</h2><ul>${e.attachments.map((a, n) => html`<li><a href="${base}/attachments/${n}" download>${a.filename}</a> (${a.content_type}, ${a.size} bytes)</li>`)}</ul>`
    : ''
}
${e.html !== null ? html`<h2>HTML</h2><iframe class="preview" sandbox="" src="${base}/html" title="The email's HTML, rendered without scripts"></iframe>` : ''}
${e.text !== null ? html`<h2>Text</h2><pre>${e.text}</pre>` : ''}
<h2>Raw message</h2><p><a href="${base}/raw">The MIME message as it goes to the provider</a></p>`,
    c.req.query('notice'),
  );
};

/** An email's page and what it does: cancel and reschedule a scheduled email, create and revoke shared links. */
export const registerEmailDetail = (app: Hono<DashboardEnv>): void => {
  app.get('/t/:team/emails/:id', async (c) => c.html(await emailPage(c)));

  /** Runs an action of the email page (owners and admins); a refusal shows on the page again. */
  const act = (path: string, run: (c: Ctx, caller: Caller) => Promise<Response>) =>
    app.post(`/t/:team/emails/:id/${path}`, async (c) => {
      authorize(c.get('actor').role, 'emails:write');
      return orFormAgain(
        c,
        () => run(c, dashboardCaller(c.get('actor'))),
        (error) => emailPage(c, { error }),
      );
    });
  const back = (c: Ctx, notice: string) =>
    c.redirect(`/t/${c.get('actor').team.id}/emails/${c.req.param('id')}?notice=${notice}`, 303);

  act('cancel', async (c, caller) => {
    await cancelEmail(c.get('deps'), caller, c.req.param('id') ?? '');
    return back(c, 'email-canceled');
  });
  act('reschedule', async (c, caller) => {
    await rescheduleEmail(c.get('deps'), caller, c.req.param('id') ?? '', scheduleInput(c.get('form').scheduled_at));
    return back(c, 'rescheduled');
  });
  act('shares', async (c, caller) => {
    const link = await shareEmail(c.get('deps'), caller, c.req.param('id') ?? '', c.get('form').expires_in);
    return c.html(await emailPage(c, { newLink: { url: link.url, expiresAt: link.expires_at } }));
  });
  act('shares/:share/revoke', async (c) => {
    await revokeEmailShare(c.get('deps'), c.get('actor').team.id, c.req.param('id') ?? '', c.req.param('share') ?? '');
    return back(c, 'link-revoked');
  });
};
