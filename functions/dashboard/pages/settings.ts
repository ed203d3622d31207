import type { Hono } from 'hono';
import { html } from 'hono/html';
import { changeRole } from '@mailstack/core/domain/people/change-role';
import { listMembers } from '@mailstack/core/domain/people/membership';
import { removeMember } from '@mailstack/core/domain/people/remove-member';
import { inviteMember } from '@mailstack/core/domain/people/invite-member';
import { listInvitations } from '@mailstack/core/domain/people/list-invitations';
import { withdrawInvitation } from '@mailstack/core/domain/people/withdraw-invitation';
import { allows, isRole, ROLES } from '@mailstack/core/domain/people/roles';
import { getUsage } from '@mailstack/core/domain/usage/get-usage';
import { PLANS } from '@mailstack/core/domain/teams/plans';
import { validationError } from '@mailstack/core/errors/api-error';
import { MAX_TEAM_NAME_LENGTH } from '@mailstack/core/limits';
import type { DashboardEnv, Ctx } from '../app.ts';
import { button, postForm, table, teamPage, when } from '../view.ts';

const roleOf = (c: Ctx) => {
  const role = c.get('form').role;
  if (!isRole(role)) throw validationError(`\`role\` must be one of ${ROLES.join(', ')}.`);
  return role;
};
const back = (c: Ctx, notice: string) => c.redirect(`/t/${c.get('actor').team.id}/settings?notice=${notice}`, 303);

export const registerSettings = (app: Hono<DashboardEnv>): void => {
  app.get('/t/:team/settings', async (c) => {
    const deps = c.get('deps');
    const actor = c.get('actor');
    const { csrf } = c.get('ctx');
    const t = `/t/${actor.team.id}`;
    const [members, invitations, usage] = await Promise.all([
      listMembers(deps, actor.team.id),
      listInvitations(deps, actor.team.id),
      getUsage(deps, actor.team),
    ]);
    const manage = allows(actor.role, 'members:write');
    const roleSelect = (current: string, label: string) =>
      html`<select name="role" aria-label="${label}">${ROLES.map((r) => html`<option${r === current ? html` selected` : ''}>${r}</option>`)}</select>`;
    return c.html(
      teamPage(
        c.get('ctx'),
        'Team settings',
        html`
<div class="card"><p>Team <strong>${actor.team.name}</strong> · id <code>${actor.team.id}</code></p>
<p>${usage.cloud ? html`Plan <strong>${usage.plan}</strong>: ${usage.today.emails_sent} emails today${usage.period ? html`, ${usage.period.emails_sent} of ${usage.period.included} this month` : ''}.` : 'Self-hosted: no plan caps apply.'}</p></div>
<h2>Members</h2>
${table(
  'Members',
  ['Person', 'Role', 'Since', ''],
  members.map(
    (m) => html`<tr><td>${m.name ? html`${m.name} ` : ''}<span class="muted">${m.email}</span></td>
<td>${manage && m.userId !== actor.user.id ? postForm(csrf, `${t}/settings/members/${m.userId}/role`, html`${roleSelect(m.role, `Role of ${m.email}`)}<button class="secondary">Change role</button>`, 'inline') : m.role}</td>
<td>${when(m.createdAt)}</td><td>${manage && m.userId !== actor.user.id ? button(csrf, `${t}/settings/members/${m.userId}/remove`, 'Remove', 'danger', `Remove ${m.email}`) : ''}</td></tr>`,
  ),
  '',
)}
<h2>Invitations</h2>
${manage ? postForm(csrf, `${t}/settings/invitations`, html`<label>Email <input type="email" name="email" required></label><label>Role ${roleSelect('member', 'Role of the invited person')}</label><button>Send invitation</button>`) : ''}
${table(
  'Invitations',
  ['Email', 'Role', 'Invited by', 'Expires', ''],
  invitations.map(
    (i) =>
      html`<tr><td>${i.email}</td><td>${i.role}</td><td>${i.invitedBy}</td><td>${when(i.expiresAt)}</td><td>${manage ? button(csrf, `${t}/settings/invitations/${i.id}/withdraw`, 'Withdraw', 'danger', `Withdraw the invitation of ${i.email}`) : ''}</td></tr>`,
  ),
  'No pending invitations.',
)}
<h2>Another team</h2>
<p class="muted">You belong to ${c.get('ctx').teams.length} team${c.get('ctx').teams.length === 1 ? '' : 's'}.${
          usage.cloud
            ? ` How many teams a person may belong to depends on the plan of the team joined or created (${Object.entries(
                PLANS,
              )
                .map(([name, p]) => `${name} ${p.teams}`)
                .join(', ')}).`
            : ''
        }</p>
${postForm(csrf, '/teams', html`<div class="field"><label for="new-team">Team name</label><input id="new-team" name="name" required maxlength="${MAX_TEAM_NAME_LENGTH}"></div><button class="secondary">Create a team</button>`)}
<h2>What each role may do</h2>
<div class="table-wrap" tabindex="0"><table><thead><tr><th scope="col">Role</th><th scope="col">May</th></tr></thead><tbody>
<tr><td>owner</td><td>everything, including granting or taking the owner role</td></tr>
<tr><td>admin</td><td>everything but the owner role: domains, mailboxes, API keys, webhooks, templates, sending and canceling broadcasts, invitations, members, audience</td></tr>
<tr><td>member</td><td>see every page and preview templates; manage contacts, segments, topics, properties and suppressions; draft broadcasts (an owner or admin sends them); create and revoke the keys of a mailbox they own</td></tr></tbody></table></div>`,
        c.req.query('notice'),
      ),
    );
  });
  app.post('/t/:team/settings/invitations', async (c) => {
    await inviteMember(c.get('deps'), c.get('actor'), { email: c.get('form').email ?? '', role: roleOf(c) });
    return back(c, 'invited');
  });
  app.post('/t/:team/settings/invitations/:id/withdraw', async (c) => {
    await withdrawInvitation(c.get('deps'), c.get('actor'), c.req.param('id'));
    return back(c, 'removed');
  });
  app.post('/t/:team/settings/members/:user/role', async (c) => {
    await changeRole(c.get('deps'), c.get('actor'), c.req.param('user'), roleOf(c));
    return back(c, 'saved');
  });
  app.post('/t/:team/settings/members/:user/remove', async (c) => {
    await removeMember(c.get('deps'), c.get('actor'), c.req.param('user'));
    return back(c, 'removed');
  });
};
