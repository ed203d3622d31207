import type { Hono } from 'hono';
import { html } from 'hono/html';
import { validate } from '@mailstack/core/schemas/validate';
import { CreateDomainRequest, UpdateDomainRequest } from '@mailstack/core/schemas/domains';
import { createDomain } from '@mailstack/core/domain/domains/create-domain';
import { deleteDomain } from '@mailstack/core/domain/domains/delete-domain';
import { getDomain, verifyDomain } from '@mailstack/core/domain/domains/domain-verification';
import { listDomains } from '@mailstack/core/domain/domains/list-domains';
import { updateDomain } from '@mailstack/core/domain/domains/update-domain';
import { dnsRecords, type Domain } from '@mailstack/core/domain/domains/domain';
import { authorize } from '@mailstack/core/domain/people/roles';
import type { DashboardEnv } from '../app.ts';
import { badge, button, fieldLimits, limitAttrs, postForm, table, teamPage, when } from '../view.ts';

const copy = (value: string, what: string) =>
  html` <button type="button" class="secondary" data-copy="${value}" aria-label="Copy ${what}" hidden>Copy</button>`;

/** A domain's claim state in the list: claimed away, claimed, or a claim waiting for its TXT record. */
const claimLine = (d: Domain) =>
  d.claimedAwayAt
    ? html` <span class="muted">claimed by another team ${when(d.claimedAwayAt)}: no longer sends</span>`
    : d.claimPlaceholder
      ? html` <span class="muted">claim pending</span>`
      : d.claimedAt
        ? html` <span class="muted">claimed ${when(d.claimedAt)}</span>`
        : '';

/** The notice of a domain that changed hands (or is waiting to) by a claim. */
const claimNotice = (d: Domain) =>
  d.claimedAwayAt
    ? html`<p class="notice" role="status">Another team proved control of this domain's DNS and claimed it ${when(d.claimedAwayAt)}: it no longer sends from this team. Delete it, or claim it back with a TXT record (POST /domains/claim).</p>`
    : d.claimPlaceholder
      ? html`<p class="notice" role="status">This domain is a claim of a domain another team or account holds: publish its TXT record (GET /domains/${d.id}/claim) and verify the claim (POST /domains/${d.id}/claim/verify).</p>`
      : d.claimedAt
        ? html`<p class="notice" role="status">This team claimed the domain ${when(d.claimedAt)}: it has new DKIM keys; publish the records below and verify.</p>`
        : '';

export const registerDomains = (app: Hono<DashboardEnv>): void => {
  app.get('/t/:team/domains', async (c) => {
    const deps = c.get('deps');
    const { items: domains } = await listDomains(deps, c.get('actor').team.id, { limit: 100 });
    const { csrf } = c.get('ctx');
    const t = `/t/${c.get('actor').team.id}`;
    return c.html(
      teamPage(
        c.get('ctx'),
        'Domains',
        html`
${postForm(
  csrf,
  `${t}/domains`,
  html`<label>Domain <input name="name" required${limitAttrs(fieldLimits(CreateDomainRequest, 'name'))} placeholder="example.com"></label>
<label>Region <select name="region">${deps.config.DELIVERY_REGIONS.map((r) => html`<option>${r}</option>`)}</select></label><button>Add domain</button>`,
)}
${table(
  'Domains',
  ['Domain', 'Status', 'Region', 'Added'],
  domains.map(
    (d) =>
      html`<tr><td><a href="${t}/domains/${d.id}">${d.name}</a></td><td>${badge(d.status)}${claimLine(d)}</td><td>${d.region}</td><td>${when(d.createdAt)}</td></tr>`,
  ),
  'No domains yet: add the domain you send from.',
)}`,
        c.req.query('notice'),
      ),
    );
  });
  app.post('/t/:team/domains', async (c) => {
    const actor = c.get('actor');
    authorize(actor.role, 'domains:write');
    const f = c.get('form');
    const d = await createDomain(
      c.get('deps'),
      actor.team,
      validate(CreateDomainRequest, {
        name: (f.name ?? '').trim().toLowerCase(),
        ...(f.region ? { region: f.region } : {}),
      }),
    );
    return c.redirect(`/t/${actor.team.id}/domains/${d.id}?notice=created`, 303);
  });
  app.get('/t/:team/domains/:id', async (c) => {
    const d = await getDomain(c.get('deps'), c.get('actor').team.id, c.req.param('id'));
    const { csrf } = c.get('ctx');
    const base = `/t/${d.teamId}/domains/${d.id}`;
    return c.html(
      teamPage(
        c.get('ctx'),
        d.name,
        html`
<div class="card"><p>Status: ${badge(d.status)} · Region: <strong>${d.region}</strong> · Added ${when(d.createdAt)}</p>
${claimNotice(d)}
${d.status === 'verified' ? '' : html`<p>Publish these records at your DNS provider, then verify.</p>${button(csrf, `${base}/verify`, 'Verify DNS records', '')}`}</div>
<h2>DNS records</h2>
${table(
  'DNS records',
  ['Type', 'Name', 'Value', 'Priority', 'Status'],
  dnsRecords(d, c.get('deps').config).map(
    (r) =>
      html`<tr><td>${r.record} ${r.type}</td><td><code>${r.name}.${d.name}</code>${copy(`${r.name}.${d.name}`, `name of the ${r.record} ${r.type} record`)}</td><td><code>${r.value}</code>${copy(r.value, `value of the ${r.record} ${r.type} record`)}</td><td>${r.priority ?? ''}</td><td>${badge(r.status)}</td></tr>`,
  ),
  '',
)}
<h2>Tracking</h2>
${postForm(
  csrf,
  `${base}/tracking`,
  html`<label class="check"><input type="checkbox" name="open_tracking" value="on"${d.openTracking ? html` checked` : ''}> Open tracking</label>
<label class="check"><input type="checkbox" name="click_tracking" value="on"${d.clickTracking ? html` checked` : ''}> Click tracking</label><button>Save tracking</button>`,
)}
<h2>Delete</h2>${button(csrf, `${base}/delete`, 'Delete domain', 'danger')}`,
        c.req.query('notice'),
      ),
    );
  });
  app.post('/t/:team/domains/:id/verify', async (c) => {
    const actor = c.get('actor');
    authorize(actor.role, 'domains:write');
    const d = await verifyDomain(c.get('deps'), actor.team.id, c.req.param('id'));
    return c.redirect(`/t/${actor.team.id}/domains/${d.id}?notice=verified`, 303);
  });
  app.post('/t/:team/domains/:id/tracking', async (c) => {
    const actor = c.get('actor');
    authorize(actor.role, 'domains:write');
    const f = c.get('form');
    const d = await updateDomain(
      c.get('deps'),
      actor.team.id,
      c.req.param('id'),
      validate(UpdateDomainRequest, {
        open_tracking: f.open_tracking === 'on',
        click_tracking: f.click_tracking === 'on',
      }),
    );
    return c.redirect(`/t/${actor.team.id}/domains/${d.id}?notice=saved`, 303);
  });
  app.post('/t/:team/domains/:id/delete', async (c) => {
    const actor = c.get('actor');
    authorize(actor.role, 'domains:write');
    await deleteDomain(c.get('deps'), actor.team.id, c.req.param('id'));
    return c.redirect(`/t/${actor.team.id}/domains?notice=deleted`, 303);
  });
};
