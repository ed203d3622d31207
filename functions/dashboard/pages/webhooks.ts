import type { Hono } from 'hono';
import { html } from 'hono/html';
import { validate } from '@mailstack/core/schemas/validate';
import { CreateWebhookRequest, RotateWebhookRequest, UpdateWebhookRequest } from '@mailstack/core/schemas/webhooks';
import { createWebhook } from '@mailstack/core/domain/webhooks/create-webhook';
import { deleteWebhook } from '@mailstack/core/domain/webhooks/delete-webhook';
import { getWebhook } from '@mailstack/core/domain/webhooks/webhook';
import { listWebhooks } from '@mailstack/core/domain/webhooks/list-webhooks';
import { rotateWebhookSecret } from '@mailstack/core/domain/webhooks/rotate-webhook-secret';
import { updateWebhook } from '@mailstack/core/domain/webhooks/update-webhook';
import { getDelivery } from '@mailstack/core/domain/webhooks/get-delivery';
import { listAttempts } from '@mailstack/core/domain/webhooks/list-attempts';
import { listDeliveries } from '@mailstack/core/domain/webhooks/list-deliveries';
import { countedAttempts, deliveryEmail, nextAttemptOf } from '@mailstack/core/domain/webhooks/delivery';
import { DELIVERY_STATUSES, type DeliveryStatus } from '@mailstack/core/domain/webhooks/vocabulary';
import type { DeliveryRecord } from '@mailstack/core/table/webhooks';
import { replayEvent } from '@mailstack/core/domain/webhooks/replay-event';
import { allows, authorize } from '@mailstack/core/domain/people/roles';
import type { WebhookRecord } from '@mailstack/core/table/webhooks';
import type { DashboardEnv, Ctx } from '../app.ts';
import {
  badge,
  button,
  fieldLimits,
  formError,
  limitAttrs,
  orFormAgain,
  postForm,
  table,
  teamPage,
  when,
  whenRelative,
} from '../view.ts';
import { eventPicker, eventsChosen, eventSummary } from './webhook-events.ts';

/** The rotation overlap's bounds, the API's. */
const OVERLAP = fieldLimits(RotateWebhookRequest, 'overlap_hours');

/** A form shown again after a refusal: the error and what was typed and ticked. */
interface Refused {
  readonly error: string;
  readonly form: Readonly<Record<string, string>>;
}

const secretCard = (
  what: string,
  secret: string,
) => html`<div class="card" role="status"><p><strong>${what}</strong> Copy the signing secret now: this page shows it only this once.</p>
<p class="secret"><code>${secret}</code><button type="button" class="secondary" data-copy="${secret}" aria-label="Copy the signing secret" hidden>Copy</button></p></div>`;

const listPage = async (c: Ctx, created?: WebhookRecord, refused?: Refused) => {
  const actor = c.get('actor');
  const { csrf } = c.get('ctx');
  const t = `/t/${actor.team.id}`;
  const { items: webhooks } = await listWebhooks(c.get('deps'), actor.team.id, { limit: 100 });
  return teamPage(
    c.get('ctx'),
    'Webhooks',
    html`
${created ? secretCard(`Endpoint ${created.endpoint} created.`, created.secret) : ''}
${
  allows(actor.role, 'webhooks:write')
    ? html`<h2>Add an endpoint</h2>${formError(refused?.error)}${postForm(
        csrf,
        `${t}/webhooks`,
        html`<label>Endpoint URL <input name="endpoint" type="url" required${limitAttrs(fieldLimits(CreateWebhookRequest, 'endpoint'))} placeholder="https://example.com/hooks" value="${refused?.form.endpoint ?? ''}"></label>
${eventPicker('new-events', refused ? eventsChosen(refused.form) : [])}<div><button>Add endpoint</button></div>`,
        'stack',
      )}`
    : html`<p class="muted">Your role (${actor.role}) may see endpoints but not change them.</p>`
}
<h2>Endpoints</h2>
${table(
  'Webhook endpoints',
  ['Endpoint', 'Events', 'Status', 'Created'],
  webhooks.map(
    (w) =>
      html`<tr><td><a href="${t}/webhooks/${w.id}">${w.endpoint}</a></td><td>${eventSummary(w.events)}</td><td>${badge(w.status)}</td><td>${when(w.createdAt)}</td></tr>`,
  ),
  'No endpoints yet: add one to receive events.',
)}`,
    c.req.query('notice'),
  );
};

/** The status filter of the delivery log, from the query: a known status, or every one. */
const statusFilter = (value: string | undefined): DeliveryStatus | undefined =>
  (DELIVERY_STATUSES as readonly string[]).includes(value ?? '') ? (value as DeliveryStatus) : undefined;

/** The email a delivery is about: its subject (linked to the email's page when it is one the team sent) and recipients. */
const emailCell = (t: string, d: DeliveryRecord) => {
  const e = deliveryEmail(d);
  if (!e) return html`<span class="muted">not an email event</span>`;
  const subject = e.subject || '(no subject)';
  return html`${d.eventType === 'email.received' ? subject : html`<a href="${t}/emails/${e.id}">${subject}</a>`}<br><span class="muted">to ${e.to.join(', ') || 'nobody'}</span>`;
};

const endpointPage = async (c: Ctx, rotated?: WebhookRecord, refused?: Refused) => {
  const deps = c.get('deps');
  const actor = c.get('actor');
  const { csrf } = c.get('ctx');
  const w = await getWebhook(deps, actor.team.id, c.req.param('id')!);
  const t = `/t/${actor.team.id}`;
  const base = `${t}/webhooks/${w.id}`;
  const mayWrite = allows(actor.role, 'webhooks:write');
  const status = statusFilter(c.req.query('status'));
  const { items: deliveries } = await listDeliveries(deps, actor.team.id, w.id, { limit: 50 }, status);
  const now = deps.clock.now();
  return teamPage(
    c.get('ctx'),
    'Webhook endpoint',
    html`<p><a href="${t}/webhooks">All endpoints</a></p>
${rotated ? secretCard('Signing secret rotated.', rotated.secret) : ''}
<div class="card"><p><code>${w.endpoint}</code></p><p>Status: ${badge(w.status)} · Created ${when(w.createdAt)}${w.previousSecretExpiresAt ? html` · The previous secret also signs until ${when(new Date(w.previousSecretExpiresAt).toISOString())}` : ''}</p>
<p>Events: ${eventSummary(w.events)}</p>
${w.status === 'disabled' ? html`<p>This endpoint is disabled: no events are delivered to it, and events recorded meanwhile are not sent later.</p>${mayWrite ? button(csrf, `${base}/enable`, 'Re-enable endpoint', '') : ''}` : ''}</div>
<h2>Delivery log</h2>
<form method="get" action="${base}" class="row"><label>Status <select name="status"><option value="">every status</option>${DELIVERY_STATUSES.map((x) => html`<option value="${x}"${x === status ? html` selected` : ''}>${x}</option>`)}</select></label><button class="secondary">Filter</button></form>
${table(
  'Deliveries',
  ['Event', 'Type', 'Email', 'Created', 'Status', 'Attempts', 'Next retry', ''],
  deliveries.map((d) => {
    const next = nextAttemptOf(d);
    return html`<tr><td><a href="${base}/events/${d.eventId}">${d.eventId}</a></td><td>${d.eventType}</td><td>${emailCell(t, d)}</td><td>${when(d.createdAt)}</td><td>${badge(d.status)}</td><td>${countedAttempts(d)}</td><td>${next === null ? html`<span class="muted">none</span>` : whenRelative(new Date(next).toISOString(), now)}</td><td>${mayWrite ? button(csrf, `${base}/events/${d.eventId}/replay`, 'Replay', 'secondary', `Replay event ${d.eventId}`) : ''}</td></tr>`;
  }),
  status ? `No delivery is ${status}.` : 'Nothing delivered yet.',
)}
${
  mayWrite
    ? html`<h2>Edit</h2>
${formError(refused?.error)}${postForm(
  csrf,
  `${base}/edit`,
  html`<label>Endpoint URL <input name="endpoint" type="url" required${limitAttrs(fieldLimits(UpdateWebhookRequest, 'endpoint'))} value="${refused?.form.endpoint ?? w.endpoint}"></label>
${eventPicker('edit-events', refused ? eventsChosen(refused.form) : w.events)}<div><button>Save endpoint</button></div>`,
  'stack',
)}
<h2>Signing secret</h2>
${postForm(csrf, `${base}/rotate`, html`<label>Old secret keeps signing for (hours, ${OVERLAP.min} to ${OVERLAP.max}) <input name="overlap_hours" type="number"${limitAttrs(OVERLAP)} value="24"></label><button>Rotate secret</button>`)}
${w.status === 'enabled' ? html`<h2>Disable</h2>${button(csrf, `${base}/disable`, 'Disable endpoint', 'secondary')}` : ''}
<h2>Delete</h2>${button(csrf, `${base}/delete`, 'Delete endpoint', 'danger')}`
    : ''
}`,
    c.req.query('notice'),
  );
};

export const registerWebhooks = (app: Hono<DashboardEnv>): void => {
  app.get('/t/:team/webhooks', async (c) => c.html(await listPage(c)));
  // The secret is in this answer only (no redirect).
  app.post('/t/:team/webhooks', async (c) => {
    const actor = c.get('actor');
    authorize(actor.role, 'webhooks:write');
    const f = c.get('form');
    return orFormAgain(
      c,
      async () => {
        const w = await createWebhook(
          c.get('deps'),
          actor.team.id,
          validate(CreateWebhookRequest, { endpoint: (f.endpoint ?? '').trim(), events: eventsChosen(f) }),
        );
        return c.html(await listPage(c, w), 201);
      },
      (error) => listPage(c, undefined, { error, form: f }),
    );
  });
  app.get('/t/:team/webhooks/:id', async (c) => c.html(await endpointPage(c)));
  app.post('/t/:team/webhooks/:id/edit', async (c) => {
    const actor = c.get('actor');
    authorize(actor.role, 'webhooks:write');
    const f = c.get('form');
    return orFormAgain(
      c,
      async () => {
        const w = await updateWebhook(
          c.get('deps'),
          actor.team.id,
          c.req.param('id'),
          validate(UpdateWebhookRequest, { endpoint: (f.endpoint ?? '').trim(), events: eventsChosen(f) }),
        );
        return c.redirect(`/t/${actor.team.id}/webhooks/${w.id}?notice=saved`, 303);
      },
      (error) => endpointPage(c, undefined, { error, form: f }),
    );
  });
  for (const [action, status] of [
    ['enable', 'enabled'],
    ['disable', 'disabled'],
  ] as const) {
    app.post(`/t/:team/webhooks/:id/${action}`, async (c) => {
      const actor = c.get('actor');
      authorize(actor.role, 'webhooks:write');
      const w = await updateWebhook(
        c.get('deps'),
        actor.team.id,
        c.req.param('id'),
        validate(UpdateWebhookRequest, { status }),
      );
      return c.redirect(`/t/${actor.team.id}/webhooks/${w.id}?notice=${status}`, 303);
    });
  }
  app.post('/t/:team/webhooks/:id/rotate', async (c) => {
    const actor = c.get('actor');
    authorize(actor.role, 'webhooks:write');
    const hours = c.get('form').overlap_hours;
    const w = await rotateWebhookSecret(
      c.get('deps'),
      actor.team.id,
      c.req.param('id'),
      validate(RotateWebhookRequest, hours ? { overlap_hours: Number(hours) } : {}),
    );
    return c.html(await endpointPage(c, w));
  });
  app.post('/t/:team/webhooks/:id/delete', async (c) => {
    const actor = c.get('actor');
    authorize(actor.role, 'webhooks:write');
    await deleteWebhook(c.get('deps'), actor.team.id, c.req.param('id'));
    return c.redirect(`/t/${actor.team.id}/webhooks?notice=deleted`, 303);
  });
  app.get('/t/:team/webhooks/:id/events/:event', async (c) => {
    const deps = c.get('deps');
    const actor = c.get('actor');
    const d = await getDelivery(deps, actor.team.id, c.req.param('id'), c.req.param('event'));
    const { items: attempts } = await listAttempts(deps, actor.team.id, d.webhookId, d.eventId, { limit: 100 });
    const base = `/t/${actor.team.id}/webhooks/${d.webhookId}`;
    return c.html(
      teamPage(
        c.get('ctx'),
        `Delivery ${d.eventId}`,
        html`
<p><a href="${base}">Back to the endpoint</a></p>
<div class="card"><p>${d.eventType} · ${badge(d.status)} · created ${when(d.createdAt)} · webhook-id <code>${d.messageId}</code></p>
<p>Attempts counted: ${countedAttempts(d)} · next retry: ${nextAttemptOf(d) === null ? 'none' : whenRelative(new Date(nextAttemptOf(d)!).toISOString(), deps.clock.now())}${d.endReason ? ` · ended: ${d.endReason}` : ''}</p>
${allows(actor.role, 'webhooks:write') ? button(c.get('ctx').csrf, `${base}/events/${d.eventId}/replay`, 'Replay event', '') : ''}</div>
<h2>Attempts</h2>
${table(
  'Attempts',
  ['Sent', 'HTTP status', 'Response'],
  attempts.map(
    (a) =>
      html`<tr><td>${when(a.sentAt)}</td><td>${a.httpStatusCode === 0 ? 'no response' : a.httpStatusCode}</td><td><code>${a.response}</code></td></tr>`,
  ),
  'No attempt yet.',
)}
<h2>Payload</h2><pre><code>${JSON.stringify(JSON.parse(d.payload), null, 2)}</code></pre>`,
        c.req.query('notice'),
      ),
    );
  });
  app.post('/t/:team/webhooks/:id/events/:event/replay', async (c) => {
    const actor = c.get('actor');
    authorize(actor.role, 'webhooks:write');
    const d = await replayEvent(c.get('deps'), actor.team.id, c.req.param('id'), c.req.param('event'));
    return c.redirect(`/t/${actor.team.id}/webhooks/${d.webhookId}/events/${d.eventId}?notice=replayed`, 303);
  });
};
