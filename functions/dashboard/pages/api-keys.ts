import type { Hono } from 'hono';
import { html } from 'hono/html';
import { listApiKeys } from '@mailstack/core/domain/api-keys/list-api-keys';
import { mintApiKey } from '@mailstack/core/domain/api-keys/create-api-key';
import { revokeApiKeyAs } from '@mailstack/core/domain/api-keys/revoke-api-key';
import { PERMISSIONS } from '@mailstack/core/domain/api-keys/api-key';
import { listAudit } from '@mailstack/core/domain/api-keys/key-audit';
import { listDomains } from '@mailstack/core/domain/domains/list-domains';
import { allows } from '@mailstack/core/domain/people/roles';
import { MAX_KEY_NAME_LENGTH } from '@mailstack/core/limits';
import type { DashboardEnv, Ctx } from '../app.ts';
import { badge, button, postForm, table, teamPage, when } from '../view.ts';

const keysPage = async (c: Ctx, minted?: { name: string; secret: string }) => {
  const deps = c.get('deps');
  const actor = c.get('actor');
  const { csrf } = c.get('ctx');
  const t = `/t/${actor.team.id}`;
  const [keys, audit, { items: domains }] = await Promise.all([
    listApiKeys(deps, actor.team.id),
    listAudit(deps, actor.team.id),
    listDomains(deps, actor.team.id, { limit: 100 }),
  ]);
  const domainName = new Map(domains.map((d) => [d.id, d.name]));
  const mayWrite = allows(actor.role, 'keys:write');
  return teamPage(
    c.get('ctx'),
    'API keys',
    html`
${
  minted
    ? html`<div class="card" role="status"><p><strong>New key "${minted.name}".</strong> Copy it now: it is shown only this once.</p>
<p class="secret"><code id="new-key">${minted.secret}</code><button type="button" class="secondary" data-copy="${minted.secret}" aria-label="Copy the new key" hidden>Copy</button></p></div>`
    : ''
}
${
  mayWrite
    ? postForm(
        csrf,
        `${t}/api-keys`,
        html`<label>Name <input name="name" required maxlength="${MAX_KEY_NAME_LENGTH}"></label>
<label>Permission <select name="permission">${Object.entries(PERMISSIONS).map(([value, label]) => html`<option value="${value}">${label}</option>`)}</select></label>
<label>Domain <select name="domain_id"><option value="">All domains</option>${domains.map((d) => html`<option value="${d.id}">${d.name}</option>`)}</select></label><button>Create key</button>`,
      )
    : html`<p class="muted">Your role (${actor.role}) may see keys but not create or revoke them.</p>`
}
${table(
  'API keys',
  ['Name', 'Permission', 'Domain', 'Created', 'Last used', 'Status', ''],
  [...keys]
    .reverse()
    .map(
      (k) =>
        html`<tr><td>${k.name}</td><td>${k.permission}</td><td>${k.domainId ? (domainName.get(k.domainId) ?? k.domainId) : 'all'}</td><td>${when(k.createdAt)}</td><td>${when(k.lastUsedAt)}</td><td>${badge(k.revoked ? 'revoked' : 'active')}</td><td>${!k.revoked && mayWrite ? button(csrf, `${t}/api-keys/${k.id}/revoke`, 'Revoke', 'danger', `Revoke key ${k.name}`) : ''}</td></tr>`,
    ),
  'No keys yet.',
)}
<h2>Audit</h2>
${table(
  'Key audit',
  ['When', 'Who', 'What', 'Key'],
  audit.map(
    (a) =>
      html`<tr><td>${when(a.at)}</td><td>${a.actor}</td><td>${a.action === 'api_key.created' ? 'created' : 'revoked'}</td><td>${a.subject}</td></tr>`,
  ),
  'No key has been created or revoked yet.',
)}`,
    c.req.query('notice'),
  );
};

export const registerApiKeys = (app: Hono<DashboardEnv>): void => {
  app.get('/t/:team/api-keys', async (c) => c.html(await keysPage(c)));
  // The secret is in this answer only (no redirect, nothing stored but its hash).
  app.post('/t/:team/api-keys', async (c) => {
    const f = c.get('form');
    const { key, secret } = await mintApiKey(c.get('deps'), c.get('actor'), {
      name: f.name ?? '',
      permission: f.permission ?? '',
      domainId: f.domain_id || null,
    });
    return c.html(await keysPage(c, { name: key.name, secret }), 201);
  });
  app.post('/t/:team/api-keys/:id/revoke', async (c) => {
    await revokeApiKeyAs(c.get('deps'), c.get('actor'), c.req.param('id'));
    return c.redirect(`/t/${c.get('actor').team.id}/api-keys?notice=revoked`, 303);
  });
};
