import type { Hono } from 'hono';
import { html } from 'hono/html';
import { approveDraft } from '@mailstack/core/domain/mailboxes/approve-draft';
import { listAwaitingApproval } from '@mailstack/core/domain/mailboxes/list-awaiting-approval';
import { rejectDraft } from '@mailstack/core/domain/mailboxes/reject-draft';
import { listActivity } from '@mailstack/core/domain/mailboxes/activity';
import type { DashboardEnv, Ctx } from '../app.ts';
import { button, table, when } from '../view.ts';
import { mailboxPath, type MailboxSection } from './mailboxes.ts';

const ACTIONS: Record<string, string> = {
  list: 'listed',
  read: 'read',
  draft: 'saved a draft',
  send: 'sent',
  approval_requested: 'asked for approval',
  approved: 'approved',
  rejected: 'rejected',
  receive: 'received',
};

const VIA: Record<string, string> = { api: 'agent API', mcp: 'MCP', dashboard: 'dashboard', inbound: 'sender' };

/** What an activity was on: a folder by name, an item by the start of its id (the whole id on hover). */
const onWhat = (subject: string) =>
  /^[0-9a-f-]{36}$/.test(subject)
    ? html`<code title="${subject}">${subject.slice(0, 8)}…</code>`
    : html`<code>${subject}</code>`;

/** Drafts waiting for the owner: what would go out, and (owner only) approve or reject at that revision. */
export const approvalsSection: MailboxSection = async ({ c, mailbox: m, base, csrf, isOwner }) => {
  const waiting = await listAwaitingApproval(c.get('deps'), m.teamId, m.id);
  return html`<h2>Approvals</h2>
<p class="muted">Drafts an agent asked to send with a key that may not send on its own. ${isOwner ? 'Approving sends the draft as it is now; an edit makes a new revision that needs a new request.' : "Only the mailbox's owner approves or rejects them."}</p>
${
  waiting.length === 0
    ? html`<p class="muted">No draft is waiting.</p>`
    : waiting.map(
        (d) => html`<article class="card" aria-label="Draft ${d.subject || '(no subject)'}">
<dl><dt>To</dt><dd>${d.to.join(', ')}</dd><dt>Subject</dt><dd>${d.subject || html`<span class="muted">(no subject)</span>`}</dd>
<dt>Asked by</dt><dd>${d.approvalRequestedBy ?? ''} · revision ${d.revision} · ${when(d.updatedAt)}</dd>
${d.attachments.length ? html`<dt>Attachments</dt><dd>${d.attachments.map((a) => `${a.filename} (${a.size} bytes)`).join(', ')}</dd>` : ''}</dl>
<pre class="message-text">${d.text}</pre>
${isOwner ? html`<div class="actions">${button(csrf, `${base}/drafts/${d.id}/approve?revision=${d.revision}`, 'Approve and send', '', `Approve and send ${d.subject}`)} ${button(csrf, `${base}/drafts/${d.id}/reject?revision=${d.revision}`, 'Reject', 'danger', `Reject ${d.subject}`)}</div>` : ''}
</article>`,
      )
}`;
};

/** The mailbox's latest activity: every message received, read, draft, send, approval and rejection. */
export const activitySection: MailboxSection = async ({ c, mailbox: m }) => {
  const activity = await listActivity(c.get('deps'), m.teamId, m.id, 50);
  return html`<h2>Activity</h2>
${table(
  'Mailbox activity',
  ['When', 'Who', 'What', 'Detail'],
  activity.map(
    (a) =>
      html`<tr><td>${when(a.at)}</td><td>${a.actorName || a.actor} <span class="muted">(${VIA[a.via] ?? a.via})</span></td><td>${ACTIONS[a.action] ?? a.action} ${onWhat(a.subject)}</td><td>${a.detail}</td></tr>`,
  ),
  'Nothing has happened in this mailbox yet.',
)}`;
};

const decision = (c: Ctx) => {
  const actor = c.get('actor');
  const revision = Number(c.req.query('revision'));
  return {
    teamId: actor.team.id,
    mailboxId: c.req.param('id') ?? '',
    draftId: c.req.param('draftId') ?? '',
    revision: Number.isSafeInteger(revision) ? revision : -1,
    actorUserId: actor.user.id,
    actorName: actor.user.name || actor.user.email,
  };
};

/** The owner's decisions on waiting drafts (the core checks the owner and the revision). */
export const registerMailboxApprovals = (app: Hono<DashboardEnv>): void => {
  app.post('/t/:team/mailboxes/:id/drafts/:draftId/approve', async (c) => {
    const d = decision(c);
    await approveDraft(c.get('deps'), d);
    return c.redirect(`${mailboxPath(d.teamId, d.mailboxId)}?notice=draft-approved`, 303);
  });
  app.post('/t/:team/mailboxes/:id/drafts/:draftId/reject', async (c) => {
    const d = decision(c);
    await rejectDraft(c.get('deps'), d);
    return c.redirect(`${mailboxPath(d.teamId, d.mailboxId)}?notice=draft-rejected`, 303);
  });
};
