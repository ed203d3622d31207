import type { Hono } from 'hono';
import { html } from 'hono/html';
import { listGrants } from '@mailstack/core/domain/oauth/list-grants';
import { revokeGrantAs } from '@mailstack/core/domain/oauth/revoke-grant-as';
import { mcpResourceUrl } from '@mailstack/core/domain/oauth/resource';
import { allows } from '@mailstack/core/domain/people/roles';
import { listMembers } from '@mailstack/core/domain/people/membership';
import type { DashboardEnv } from '../app.ts';
import { badge, button, table, teamPage, when } from '../view.ts';

/**
 * The team's MCP connections: every OAuth grant a person of the team gave an MCP client, with
 * its scopes, and a revoke button (a person's own grants; owners and admins any). Revocation
 * stops the client's next call.
 */
export const registerConnections = (app: Hono<DashboardEnv>): void => {
  app.get('/t/:team/connections', async (c) => {
    const deps = c.get('deps');
    const actor = c.get('actor');
    const { csrf } = c.get('ctx');
    const [grants, members] = await Promise.all([listGrants(deps, actor.team.id), listMembers(deps, actor.team.id)]);
    const who = new Map(members.map((m) => [m.userId, m.email]));
    const mayRevokeAny = allows(actor.role, 'keys:write');
    return c.html(
      teamPage(
        c.get('ctx'),
        'MCP connections',
        html`
<p>AI agents and other MCP clients connect to <code>${mcpResourceUrl(deps.config)}</code> and act with what a person of the team allowed them on the consent screen.</p>
${table(
  'MCP connections',
  ['Client', 'Connected by', 'Scopes', 'Connected', 'Status', ''],
  grants.map(
    (g) =>
      html`<tr><td>${g.clientName}</td><td>${who.get(g.userId) ?? 'a former member'}</td><td>${g.scopes.join(' ')}</td><td>${when(g.createdAt)}</td><td>${badge(g.revokedAt ? 'revoked' : 'active')}</td><td>${!g.revokedAt && (mayRevokeAny || g.userId === actor.user.id) ? button(csrf, `/t/${actor.team.id}/connections/${g.id}/revoke`, 'Revoke', 'danger', `Revoke the connection of ${g.clientName}`) : ''}</td></tr>`,
  ),
  'No MCP client is connected to this team.',
)}`,
        c.req.query('notice'),
      ),
    );
  });
  app.post('/t/:team/connections/:id/revoke', async (c) => {
    await revokeGrantAs(c.get('deps'), c.get('actor'), c.req.param('id'));
    return c.redirect(`/t/${c.get('actor').team.id}/connections?notice=connection-revoked`, 303);
  });
};
