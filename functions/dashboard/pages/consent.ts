import type { Hono } from 'hono';
import { html } from 'hono/html';
import { decideAuthorization } from '@mailstack/core/domain/oauth/decide-authorization';
import { loadAuthorizationRequest } from '@mailstack/core/domain/oauth/authorization';
import { describeScope, isMailScope, roleMayGrant } from '@mailstack/core/domain/oauth/scopes';
import { listMailboxes } from '@mailstack/core/domain/mailboxes/list-mailboxes';
import { teamsOf } from '@mailstack/core/domain/people/membership';
import { getTeam } from '@mailstack/core/domain/teams/team';
import type { DashboardEnv } from '../app.ts';
import { csrfField, plainPage } from '../view.ts';

/**
 * The consent screen of the MCP server's authorization server: a signed-in person sees which
 * client asks, chooses the team, sees the scopes asked for in plain words (unticking any),
 * chooses the mailboxes the mail:* scopes may act in (their own), and approves or denies. The answer sends the browser back to the client's registered redirect URI.
 */
export const registerConsent = (app: Hono<DashboardEnv>, csp: string): void => {
  app.get('/oauth/consent/:id', async (c) => {
    const deps = c.get('deps');
    const s = c.get('session')!;
    const request = await loadAuthorizationRequest(deps, c.req.param('id'));
    const memberships = await teamsOf(deps, s.user.id);
    const teams = (
      await Promise.all(memberships.map(async (m) => ({ ...m, team: await getTeam(deps, m.teamId) })))
    ).filter((t) => t.team);
    // The mail:* scopes act only in mailboxes the person owns and ticks here (the core keeps those of the chosen team).
    const mailboxes = request.scopes.some(isMailScope)
      ? (
          await Promise.all(
            teams.map(async (t) =>
              (
                await listMailboxes(deps, t.teamId)
              )
                .filter((m) => m.ownerUserId === s.user.id)
                .map((m) => ({ ...m, teamName: t.team!.name })),
            ),
          )
        ).flat()
      : [];
    const back = new URL(request.redirectUri);
    // The decision redirects to the client: the form may navigate there (CSP form-action covers redirects).
    c.header('Content-Security-Policy', csp.replace("form-action 'self'", `form-action 'self' ${back.origin}`));
    const action = `/oauth/consent/${c.req.param('id')}`;
    if (teams.length === 0) {
      return c.html(
        plainPage(
          `Connect ${request.clientName}?`,
          html`<p>You are not in a team yet, so there is nothing to connect ${request.clientName} to. Create a team from the dashboard first.</p>
<form method="post" action="${action}">${csrfField(s.csrf)}<button name="decision" value="deny">Go back to the application</button></form>`,
        ),
      );
    }
    return c.html(
      plainPage(
        `Connect ${request.clientName}?`,
        html`
<p><strong>${request.clientName}</strong> asks to use mailstack as you (${s.user.email}). After your answer you go back to <strong>${back.host}</strong>.</p>
<form method="post" action="${action}">${csrfField(s.csrf)}
<label>Team <select name="team_id">${teams.map((t) => html`<option value="${t.teamId}">${t.team!.name} (you are ${t.role})</option>`)}</select></label>
<fieldset><legend>What it may do</legend>
${request.scopes.map((scope) => html`<label class="check"><input type="checkbox" name="grant_${scope}" value="on" checked> ${describeScope(scope)} <code>${scope}</code>${teams.every((t) => !roleMayGrant(t.role, scope)) ? html` <span class="muted">(your role does not allow it: it will not be granted)</span>` : ''}</label>`)}
</fieldset>
${
  request.scopes.some(isMailScope)
    ? html`<fieldset><legend>Mailboxes it may use</legend>
<p class="muted">The mail scopes act only in the mailboxes you tick, of the team you choose above. Without one, they are not granted.</p>
${mailboxes.length === 0 ? html`<p>You own no mailbox, so the mail scopes will not be granted.</p>` : mailboxes.map((m) => html`<label class="check"><input type="checkbox" name="mailbox_${m.id}" value="on"> ${m.address} <span class="muted">(${m.teamName})</span></label>`)}
</fieldset>`
    : ''
}
<p class="muted">Only what your role in the chosen team allows is granted. You can revoke the connection at any time from the team's MCP connections page.</p>
<div class="row"><button name="decision" value="approve">Approve</button><button name="decision" value="deny" class="secondary">Deny</button></div>
</form>`,
      ),
    );
  });

  app.post('/oauth/consent/:id', async (c) => {
    const f = c.get('form');
    const user = c.get('session')!.user;
    const request =
      f.decision === 'approve' ? await loadAuthorizationRequest(c.get('deps'), c.req.param('id')) : undefined;
    const location = await decideAuthorization(
      c.get('deps'),
      c.req.param('id'),
      user,
      request
        ? {
            approve: true,
            teamId: f.team_id ?? '',
            scopes: request.scopes.filter((scope) => f[`grant_${scope}`] === 'on'),
            mailboxIds: Object.keys(f)
              .filter((k) => k.startsWith('mailbox_') && f[k] === 'on')
              .map((k) => k.slice('mailbox_'.length)),
          }
        : { approve: false },
    );
    return c.redirect(location, 303);
  });
};
