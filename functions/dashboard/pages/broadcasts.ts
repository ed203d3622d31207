import type { Hono } from 'hono';
import { html } from 'hono/html';
import { validate } from '@mailstack/core/schemas/validate';
import {
  CreateBroadcastRequest,
  SendBroadcastRequest,
  UpdateBroadcastRequest,
} from '@mailstack/core/schemas/broadcasts';
import {
  broadcastRow,
  broadcastView,
  canceledRemaining,
  eligibleCount,
} from '@mailstack/core/domain/broadcasts/broadcast-view';
import { createBroadcast } from '@mailstack/core/domain/broadcasts/create-broadcast';
import { deleteBroadcast } from '@mailstack/core/domain/broadcasts/delete-broadcast';
import { duplicateBroadcast } from '@mailstack/core/domain/broadcasts/duplicate-broadcast';
import { getBroadcast } from '@mailstack/core/domain/broadcasts/get-broadcast';
import { listBroadcasts } from '@mailstack/core/domain/broadcasts/list-broadcasts';
import { updateBroadcast } from '@mailstack/core/domain/broadcasts/update-broadcast';
import type { BroadcastItem, Checkpoint } from '@mailstack/core/table/broadcasts';
import { cancelBroadcast } from '@mailstack/core/domain/broadcasts/cancel-broadcast';
import { sendBroadcast } from '@mailstack/core/domain/broadcasts/send-broadcast';
import { TRANSACTIONAL_RESERVE } from '@mailstack/core/domain/broadcasts/plan';
import { listSegments } from '@mailstack/core/domain/segments/list-segments';
import { listTopics } from '@mailstack/core/domain/topics/list-topics';
import { listTemplates } from '@mailstack/core/domain/templates/list-templates';
import { allows, authorize } from '@mailstack/core/domain/people/roles';
import { validationError } from '@mailstack/core/errors/api-error';
import type { DashboardEnv, Ctx } from '../app.ts';
import {
  badge,
  button,
  csrfField,
  field,
  fieldLimits,
  limitAttrs,
  formError,
  orFormAgain,
  postForm,
  sandboxedHtml,
  table,
  teamPage,
  when,
  whenRelative,
  type Html,
} from '../view.ts';

type Form = Record<string, string>;

/** Statuses a broadcast can still be canceled in (its progress refreshes itself meanwhile). */
const LIVE = new Set(['scheduled', 'queued', 'sending']);
/** Seconds between refreshes of a live broadcast's progress. */
const REFRESH_SECONDS = 4;

const blank = (s: string | undefined) => (s === undefined || s.trim() === '' ? null : s.trim());

/**
 * The form's fields as the API's create / update body. A template, when chosen, gives the body
 * (the HTML and text fields are then not sent: the API refuses both at once).
 */
const bodyOf = (f: Form) => {
  const template = blank(f.template_id);
  return {
    name: blank(f.name),
    ...(blank(f.segment_id) ? { segment_id: f.segment_id!.trim() } : {}),
    topic_id: blank(f.topic_id),
    ...(blank(f.from) ? { from: f.from!.trim() } : {}),
    reply_to:
      blank(f.reply_to) === null
        ? null
        : f
            .reply_to!.split(',')
            .map((x) => x.trim())
            .filter(Boolean),
    ...(blank(f.subject) ? { subject: f.subject!.trim() } : {}),
    preview_text: blank(f.preview_text),
    ...(template
      ? { template: { id: template } }
      : { html: blank(f.html) === null ? null : f.html!, text: blank(f.text) === null ? null : f.text! }),
  };
};

const valuesOf = (b: BroadcastItem): Form => ({
  name: b.name ?? '',
  segment_id: b.segment_id,
  topic_id: b.topic_id ?? '',
  from: b.from,
  reply_to: (b.reply_to ?? []).join(', '),
  subject: b.subject,
  preview_text: b.preview_text ?? '',
  html: b.html ?? '',
  text: b.text ?? '',
});

/** What the pickers offer: the team's segments, topics and templates (first 100 of each). */
const choices = async (c: Ctx) => {
  const deps = c.get('deps');
  const teamId = c.get('actor').team.id;
  const [{ items: segments }, { items: topics }, { items: templates }] = await Promise.all([
    listSegments(deps, teamId, { limit: 100 }),
    listTopics(deps, teamId, { limit: 100 }),
    listTemplates(deps, teamId, { limit: 100 }),
  ]);
  return { segments, topics, templates };
};

const options = (items: readonly { id: string; name: string }[], selected: string | undefined, none?: string) =>
  html`${none !== undefined ? html`<option value="">${none}</option>` : ''}${items.map((x) => html`<option value="${x.id}"${x.id === selected ? html` selected` : ''}>${x.name}</option>`)}`;

/** The draft form (create and edit). */
const draftForm = async (c: Ctx, v: Form, action: string, saveLabel: string, error?: string) => {
  const { segments, topics, templates } = await choices(c);
  return html`${formError(error)}
<form method="post" action="${action}" class="stack">${csrfField(c.get('ctx').csrf)}
${field('f-name', 'Name (for you; recipients do not see it)', html`<input id="f-name" name="name"${limitAttrs(fieldLimits(CreateBroadcastRequest, 'name'))} value="${v.name ?? ''}">`)}
${field('f-segment_id', 'Segment (the audience to send to)', html`<select id="f-segment_id" name="segment_id" required>${options(segments, v.segment_id, segments.length ? 'Choose a segment' : 'No segment yet: add one under Segments')}</select>`)}
${field('f-topic_id', 'Topic (optional; contacts who opted out of it are skipped)', html`<select id="f-topic_id" name="topic_id">${options(topics, v.topic_id, 'No topic')}</select>`)}
${field('f-from', 'From', html`<input id="f-from" name="from" value="${v.from ?? ''}" placeholder="Acme &lt;news@acme.com&gt;">`)}
${field('f-reply_to', 'Reply-to (optional; addresses separated by commas)', html`<input id="f-reply_to" name="reply_to" value="${v.reply_to ?? ''}">`)}
${field('f-subject', 'Subject', html`<input id="f-subject" name="subject"${limitAttrs(fieldLimits(CreateBroadcastRequest, 'subject'))} value="${v.subject ?? ''}">`)}
${field('f-preview_text', 'Preview text (optional; the line inboxes show after the subject)', html`<input id="f-preview_text" name="preview_text"${limitAttrs(fieldLimits(CreateBroadcastRequest, 'preview_text'))} value="${v.preview_text ?? ''}">`)}
${field('f-template_id', 'Body from a template (optional; its HTML and text replace the fields below, and its sender and subject fill empty ones)', html`<select id="f-template_id" name="template_id">${options(templates, v.template_id, 'No template: use the HTML and text below')}</select>`)}
${field('f-html', 'HTML', html`<textarea id="f-html" name="html" rows="12" class="code" spellcheck="false">${v.html ?? ''}</textarea>`)}
${field('f-text', 'Text version', html`<textarea id="f-text" name="text" rows="5" class="code" spellcheck="false">${v.text ?? ''}</textarea>`)}
<p class="muted">Personalise with <code>{{{FIRST_NAME|there}}}</code>, <code>{{{EMAIL}}}</code> or a contact property; <code>{{{UNSUBSCRIBE_URL}}}</code> is each recipient's unsubscribe link.</p>
<div class="actions"><button>${saveLabel}</button></div></form>`;
};

/** The pacing of a sent broadcast, in words, from the plan it stored at send. */
const pacing = (b: BroadcastItem, now: number): Html => {
  const p = b.plan!;
  const queuedBehind = !b.scheduled_at && b.sent_at && p.starts_at > Date.parse(b.sent_at) + 1000;
  return html`<ul class="facts">
<li>At most <strong>${p.rate}</strong> sends a second: the provider's rate less the ${TRANSACTIONAL_RESERVE * 100}% kept for transactional email.</li>
${queuedBehind ? html`<li>Other broadcasts held this region's broadcast capacity when it was sent, so it starts after them, ${whenRelative(new Date(p.starts_at).toISOString(), now)}.</li>` : ''}
${p.daily_cap !== null ? html`<li>The team's plan sends <strong>${p.daily_cap}</strong> emails a UTC day; ${p.used_on_start_day} were already used on the start day. Recipients past a day's quota wait for the next UTC day.</li>` : ''}
${p.period_left != null && p.renews_at != null ? html`<li>This period's included volume held ${p.period_left} more emails; the rest waits for the period's renewal, ${whenRelative(new Date(p.renews_at).toISOString(), now)}.</li>` : ''}
<li>${p.audience} contacts in the segment at send, planned over <strong>${p.days}</strong> UTC day${p.days === 1 ? '' : 's'}.</li></ul>`;
};

/** The live progress of a sent broadcast (refreshed in place by the script while it runs). */
const progress = (c: Ctx, b: BroadcastItem, cp: Checkpoint, now: number): Html => {
  const view = broadcastView(b, cp, now);
  const base = `/t/${b.team_id}/broadcasts/${b.id}`;
  const total = eligibleCount(b, cp);
  const failed = b.failed_count ?? 0;
  const live = LIVE.has(view.status);
  const mayCancel = live && allows(c.get('actor').role, 'broadcasts:send');
  const skipped = view.skipped.unsubscribed + view.skipped.suppressed + view.skipped.opted_out;
  return html`<section id="progress" class="card" aria-labelledby="progress-title"${live ? html` data-refresh="${REFRESH_SECONDS}" aria-live="polite"` : ''}>
<h2 id="progress-title">Progress</h2>
<p>Status ${badge(view.status)}${live ? html` <span class="muted">· updates every ${REFRESH_SECONDS} seconds</span>` : ''}</p>
<p class="big"><strong>${view.sent_count}</strong> of <strong>${total}</strong> sent${cp.done ? '' : html` <span class="muted">(the total is still being counted: ${skipped} skipped so far)</span>`}</p>
<progress max="${Math.max(total, 1)}" value="${Math.min(view.sent_count, Math.max(total, 1))}" aria-label="Sent so far">${view.sent_count} of ${total}</progress>
<dl>
<dt>Finishes</dt><dd>${view.status === 'canceled' ? html`<span class="muted">canceled</span>` : view.status === 'sent' ? html`finished ${whenRelative(view.finishes_at, now)}` : whenRelative(view.finishes_at, now)}</dd>
${view.scheduled_at ? html`<dt>Scheduled for</dt><dd>${whenRelative(view.scheduled_at, now)}</dd>` : ''}
<dt>Sent at</dt><dd>${when(view.sent_at)}</dd>
${failed ? html`<dt>Failed</dt><dd>${failed}</dd>` : ''}
<dt>Skipped</dt><dd>${view.skipped.unsubscribed} unsubscribed, ${view.skipped.suppressed} suppressed, ${view.skipped.opted_out} opted out of the topic</dd>
${b.status === 'canceled' ? html`<dt>Canceled</dt><dd>${when(b.canceled_at)}: ${canceledRemaining(b, cp)} recipients not sent to${cp.done ? '' : ' (still being counted)'}</dd>` : ''}
</dl>
${b.plan ? html`<h3>Pacing</h3>${pacing(b, now)}` : ''}
${mayCancel ? html`<p>${button(c.get('ctx').csrf, `${base}/cancel`, 'Cancel broadcast', 'danger')} <span class="muted">Nothing more goes out to the recipients still waiting; this cannot be undone.</span></p>` : ''}
</section>`;
};

const listPage = async (c: Ctx) => {
  const deps = c.get('deps');
  const actor = c.get('actor');
  const t = `/t/${actor.team.id}/broadcasts`;
  const after = c.req.query('after');
  const [{ items, hasMore }, { items: segments }] = await Promise.all([
    listBroadcasts(deps, actor.team.id, {
      limit: 50,
      after: after && /^[0-9a-f-]{36}$/.test(after) ? after : undefined,
    }),
    listSegments(deps, actor.team.id, { limit: 100 }),
  ]);
  const segmentName = new Map(segments.map((s) => [s.id, s.name]));
  const now = deps.clock.now();
  const last = items.at(-1)?.broadcast.id;
  return teamPage(
    c.get('ctx'),
    'Broadcasts',
    html`
${allows(actor.role, 'broadcasts:write') ? html`<p><a class="button" href="${t}/new">New broadcast</a></p>` : ''}
${table(
  'Broadcasts',
  ['Name', 'Segment', 'Status', 'Scheduled', 'Sent', 'Finishes'],
  items.map(({ broadcast: b, checkpoint }) => {
    const row = broadcastRow(b, checkpoint, now);
    const view = broadcastView(b, checkpoint, now);
    return html`<tr><td><a href="${t}/${b.id}">${b.name || b.subject}</a></td><td>${segmentName.get(b.segment_id) ?? html`<code>${b.segment_id}</code>`}</td><td>${badge(row.status)}</td>
<td>${row.scheduled_at ? when(row.scheduled_at) : html`<span class="muted">no</span>`}</td><td>${row.sent_at ? when(row.sent_at) : html`<span class="muted">not yet</span>`}</td><td>${view.finishes_at ? whenRelative(view.finishes_at, now) : html`<span class="muted">none</span>`}</td></tr>`;
  }),
  'No broadcasts yet: draft one, then send it to a segment.',
)}
${hasMore && last ? html`<p class="pager"><a href="${t}?after=${last}">Older broadcasts</a></p>` : ''}`,
    c.req.query('notice'),
  );
};

const newPage = async (c: Ctx, v: Form = {}, error?: string) =>
  teamPage(
    c.get('ctx'),
    'New broadcast',
    html`<p><a href="/t/${c.get('actor').team.id}/broadcasts">All broadcasts</a></p>
${await draftForm(c, v, `/t/${c.get('actor').team.id}/broadcasts`, 'Save draft', error)}`,
  );

const broadcastPage = async (c: Ctx, edited?: Form, error?: string) => {
  const deps = c.get('deps');
  const actor = c.get('actor');
  const { csrf } = c.get('ctx');
  const { broadcast: b, checkpoint } = await getBroadcast(deps, actor.team.id, c.req.param('id')!);
  const now = deps.clock.now();
  const base = `/t/${actor.team.id}/broadcasts/${b.id}`;
  const { segments, topics } = await choices(c);
  const draft = b.status === 'draft';
  const mayWrite = allows(actor.role, 'broadcasts:write');
  const maySend = allows(actor.role, 'broadcasts:send');
  const details = html`<div class="card"><dl><dt>Subject</dt><dd>${b.subject}</dd><dt>From</dt><dd>${b.from}</dd>
<dt>Segment</dt><dd>${segments.find((s) => s.id === b.segment_id)?.name ?? html`<code>${b.segment_id}</code>`}</dd>
${b.topic_id ? html`<dt>Topic</dt><dd>${topics.find((x) => x.id === b.topic_id)?.name ?? html`<code>${b.topic_id}</code>`}</dd>` : ''}
<dt>Created</dt><dd>${when(b.created_at)}</dd><dt>Id</dt><dd><code>${b.id}</code></dd></dl></div>`;
  const content = html`<div class="preview-pane"><h2>Content</h2>${
    b.html !== null
      ? html`<p class="muted">As saved; personalisation is filled per recipient at send. Scripts do not run and remote images do not load here.</p>
<iframe class="preview" sandbox="" src="${base}/html" title="The broadcast's HTML, rendered without scripts"></iframe>`
      : ''
  }
${b.text !== null ? html`<h3>Text version</h3><pre>${b.text}</pre>` : ''}</div>`;
  const body = draft
    ? html`${details}
${
  maySend
    ? html`<h2>Send</h2>${postForm(
        csrf,
        `${base}/send`,
        html`${field('f-scheduled_at', 'Schedule for (optional)', html`<input id="f-scheduled_at" class="wide" name="scheduled_at" placeholder="in 2 hours, or 2026-11-24T09:00:00Z">`)}
<button name="when" value="now">Send now</button><button name="when" value="later" class="secondary">Schedule</button>`,
      )}
<p class="muted">Sending is paced: the page shows when the last email is planned to go out.</p>`
    : html`<p class="muted">Your role (${actor.role}) may draft broadcasts; an owner or admin sends them.</p>`
}
<div class="split"><div>${
        mayWrite
          ? html`<h2>Edit draft</h2>${await draftForm(c, edited ?? valuesOf(b), `${base}/edit`, 'Save draft', error)}
<div class="actions">${button(csrf, `${base}/duplicate`, 'Duplicate')}${button(csrf, `${base}/delete`, 'Delete draft', 'danger')}</div>`
          : ''
      }</div>
${content}</div>`
    : html`${formError(error)}${progress(c, b, checkpoint, now)}
<div class="split"><div>${details}${mayWrite ? html`<div class="actions">${button(csrf, `${base}/duplicate`, 'Duplicate as a new draft')}</div>` : ''}</div>${content}</div>`;
  return teamPage(
    c.get('ctx'),
    b.name || b.subject,
    html`<p><a href="/t/${actor.team.id}/broadcasts">All broadcasts</a></p>${body}`,
    c.req.query('notice'),
  );
};

export const registerBroadcasts = (app: Hono<DashboardEnv>): void => {
  app.get('/t/:team/broadcasts', async (c) => c.html(await listPage(c)));
  app.get('/t/:team/broadcasts/new', async (c) => {
    authorize(c.get('actor').role, 'broadcasts:write');
    return c.html(await newPage(c));
  });
  app.post('/t/:team/broadcasts', async (c) => {
    const actor = c.get('actor');
    authorize(actor.role, 'broadcasts:write');
    const f = c.get('form');
    return orFormAgain(
      c,
      async () => {
        const b = await createBroadcast(c.get('deps'), actor.team.id, validate(CreateBroadcastRequest, bodyOf(f)));
        return c.redirect(`/t/${actor.team.id}/broadcasts/${b.id}?notice=created`, 303);
      },
      (error) => newPage(c, f, error),
    );
  });
  app.get('/t/:team/broadcasts/:id', async (c) => c.html(await broadcastPage(c)));
  app.get('/t/:team/broadcasts/:id/html', async (c) => {
    const { broadcast } = await getBroadcast(c.get('deps'), c.get('actor').team.id, c.req.param('id'));
    return sandboxedHtml(c, broadcast.html ?? '');
  });
  app.post('/t/:team/broadcasts/:id/edit', async (c) => {
    const actor = c.get('actor');
    authorize(actor.role, 'broadcasts:write');
    const f = c.get('form');
    return orFormAgain(
      c,
      async () => {
        const b = await updateBroadcast(
          c.get('deps'),
          actor.team.id,
          c.req.param('id'),
          validate(UpdateBroadcastRequest, bodyOf(f)),
        );
        return c.redirect(`/t/${actor.team.id}/broadcasts/${b.id}?notice=saved`, 303);
      },
      (error) => broadcastPage(c, f, error),
    );
  });
  app.post('/t/:team/broadcasts/:id/send', async (c) => {
    const actor = c.get('actor');
    authorize(actor.role, 'broadcasts:send');
    const f = c.get('form');
    return orFormAgain(
      c,
      async () => {
        const later = f.when === 'later';
        if (later && !blank(f.scheduled_at))
          throw validationError(
            '`scheduled_at`: give the time to schedule for, e.g. "in 2 hours" or 2026-11-24T09:00:00Z, or press Send now.',
          );
        // Enter in the time field submits with the first button (Send now): a time given is never thrown away.
        if (!later && blank(f.scheduled_at))
          throw validationError(
            `\`scheduled_at\`: the form holds a time (${JSON.stringify(blank(f.scheduled_at))}): press Schedule to send then, or clear it and press Send now.`,
          );
        const { scheduled_at } =
          validate(SendBroadcastRequest, later ? { scheduled_at: f.scheduled_at!.trim() } : {}) ?? {};
        const sent = await sendBroadcast(c.get('deps'), actor.team, c.req.param('id'), scheduled_at);
        const notice =
          sent.warning?.type === 'paced'
            ? 'paced'
            : sent.warning?.type === 'queued_behind'
              ? 'queued'
              : later
                ? 'scheduled'
                : 'sent';
        return c.redirect(`/t/${actor.team.id}/broadcasts/${sent.id}?notice=${notice}`, 303);
      },
      (error) => broadcastPage(c, undefined, error),
    );
  });
  app.post('/t/:team/broadcasts/:id/cancel', async (c) => {
    const actor = c.get('actor');
    authorize(actor.role, 'broadcasts:send');
    return orFormAgain(
      c,
      async () => {
        const done = await cancelBroadcast(c.get('deps'), actor.team.id, c.req.param('id'));
        return c.redirect(`/t/${actor.team.id}/broadcasts/${done.id}?notice=canceled`, 303);
      },
      (error) => broadcastPage(c, undefined, error),
    );
  });
  app.post('/t/:team/broadcasts/:id/duplicate', async (c) => {
    const actor = c.get('actor');
    authorize(actor.role, 'broadcasts:write');
    const copy = await duplicateBroadcast(c.get('deps'), actor.team.id, c.req.param('id'));
    return c.redirect(`/t/${actor.team.id}/broadcasts/${copy.id}?notice=duplicated`, 303);
  });
  app.post('/t/:team/broadcasts/:id/delete', async (c) => {
    const actor = c.get('actor');
    authorize(actor.role, 'broadcasts:write');
    return orFormAgain(
      c,
      async () => {
        await deleteBroadcast(c.get('deps'), actor.team.id, c.req.param('id'));
        return c.redirect(`/t/${actor.team.id}/broadcasts?notice=deleted`, 303);
      },
      (error) => broadcastPage(c, undefined, error),
    );
  });
};
