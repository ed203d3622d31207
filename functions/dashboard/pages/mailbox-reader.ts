import type { Hono } from 'hono';
import { html } from 'hono/html';
import { validate } from '@mailstack/core/schemas/validate';
import { ReplyInboxEmailRequest } from '@mailstack/core/schemas/inbox-drafts';
import { getMailbox } from '@mailstack/core/domain/mailboxes/get-mailbox';
import type { Mailbox } from '@mailstack/core/domain/mailboxes/mailbox';
import { getInboxThread } from '@mailstack/core/domain/mailboxes/get-inbox-thread';
import { listThreadEmails } from '@mailstack/core/domain/mailboxes/list-thread-emails';
import { getThreadEmail } from '@mailstack/core/domain/mailboxes/get-thread-email';
import { replyToEmail } from '@mailstack/core/domain/mailboxes/inbox-replies';
import { allows, authorize } from '@mailstack/core/domain/people/roles';
import { ApiError } from '@mailstack/core/errors/api-error';
import type { DashboardEnv, Ctx } from '../app.ts';
import {
  badge,
  field,
  fieldLimits,
  formError,
  limitAttrs,
  orFormAgain,
  postForm,
  sandboxedHtml,
  teamPage,
  when,
} from '../view.ts';
import { mailboxPath } from './mailboxes.ts';

/** The most messages of a thread the reader shows (the oldest first). */
const SHOWN = 100;

/** Who may reply from the dashboard: the mailbox's owner, and people whose role manages the team's mailboxes. */
const mayReply = (c: Ctx, m: Mailbox): boolean =>
  m.ownerUserId === c.get('actor').user.id || allows(c.get('actor').role, 'mailboxes:write');

const threadPath = (m: Mailbox, threadId: string) => `${mailboxPath(m.teamId, m.id)}/threads/${threadId}`;

const list = (addresses: readonly string[]) => addresses.join(', ');

/**
 * One conversation of a mailbox: each message with its people, its HTML in a sandboxed frame (as
 * the email page shows it: no script, nothing loaded) or its text, and a reply to the latest
 * message through the same use case as the SDK's `threads.emails.reply`.
 */
const readerPage = async (c: Ctx, refused?: { error: string; text: string; replyAll: boolean }) => {
  const deps = c.get('deps');
  const actor = c.get('actor');
  const m = await getMailbox(deps, actor.team.id, c.req.param('id') ?? '');
  const threadId = c.req.param('thread') ?? '';
  const [thread, { items: emails }] = await Promise.all([
    getInboxThread(deps, m, threadId),
    listThreadEmails(deps, m, threadId, { limit: SHOWN }),
  ]);
  const base = threadPath(m, thread.id);
  const latest = emails.filter((e) => e.direction === 'inbound').at(-1) ?? emails.at(-1);
  const text = fieldLimits(ReplyInboxEmailRequest, 'text');
  return teamPage(
    c.get('ctx'),
    thread.subject ?? '(no subject)',
    html`<p><a href="${mailboxPath(m.teamId, m.id)}">Back to ${m.address}</a></p>
<p class="muted">Folder ${thread.folder} · ${thread.read ? 'read' : 'unread'} · ${emails.length} message${emails.length === 1 ? '' : 's'}${thread.labels.length ? html` · labels ${thread.labels.map((l) => l.name).join(', ')}` : ''}</p>
${emails.map(
  (e, n) => html`<article class="card message" aria-labelledby="msg-${n}">
<h2 id="msg-${n}" class="message-head">${e.direction === 'inbound' ? badge('received') : badge('sent')} <span>${e.from}</span></h2>
<dl><dt>To</dt><dd>${list(e.to)}</dd>${e.cc.length ? html`<dt>Cc</dt><dd>${list(e.cc)}</dd>` : ''}${e.reply_to.length ? html`<dt>Reply-To</dt><dd>${list(e.reply_to)}</dd>` : ''}
<dt>Subject</dt><dd>${e.subject ?? html`<span class="muted">(no subject)</span>`}</dd><dt>${e.direction === 'inbound' ? 'Received' : 'Sent'}</dt><dd>${when(e.received_at)}</dd>
${e.attachments.length ? html`<dt>Attachments</dt><dd>${e.attachments.map((a) => `${a.filename} (${a.size} bytes)`).join(', ')}</dd>` : ''}</dl>
${e.direction === 'inbound' ? html`<p class="muted">Written by the sender: read it as mail from outside the team.</p>` : ''}
${
  e.html !== null
    ? html`<iframe class="preview" sandbox="" src="${base}/emails/${e.id}/html" title="The HTML of the message from ${e.from}, rendered without scripts"></iframe>
${e.text !== null ? html`<details><summary>Plain text</summary><pre class="message-text">${e.text}</pre></details>` : ''}`
    : e.text !== null
      ? html`<pre class="message-text">${e.text}</pre>`
      : html`<p class="muted">This message is too large to show here; read it through the receiving API.</p>`
}
</article>`,
)}
${
  latest && mayReply(c, m)
    ? html`<h2>Reply</h2>
<p class="muted">Answers the latest message${latest.direction === 'inbound' ? html` from ${latest.from}` : ''}, from ${m.address}, in this thread (plain text).</p>
${formError(refused?.error)}${postForm(
  c.get('ctx').csrf,
  `${base}/reply`,
  html`<input type="hidden" name="email_id" value="${latest.id}">
${field('reply-text', 'Message', html`<textarea id="reply-text" name="text" rows="8" required${limitAttrs(text)}>${refused?.text ?? ''}</textarea>`)}
<label class="check"><input type="checkbox" name="reply_all"${refused?.replyAll ? html` checked` : ''}> Reply to everyone it went to</label>
<div><button>Send reply</button></div>`,
  'stack',
)}`
    : latest
      ? html`<p class="muted">Only the mailbox's owner and people who manage mailboxes reply from here.</p>`
      : ''
}`,
    c.req.query('notice'),
  );
};

/** The conversation reader of a mailbox: a thread's messages, each HTML body on its own sandboxed answer, and the reply. */
export const registerMailboxReader = (app: Hono<DashboardEnv>): void => {
  app.get('/t/:team/mailboxes/:id/threads/:thread', async (c) => c.html(await readerPage(c)));
  // A message's HTML, for the sandboxed frame only: its own CSP (sandbox, nothing loads, no script).
  app.get('/t/:team/mailboxes/:id/threads/:thread/emails/:email/html', async (c) => {
    const deps = c.get('deps');
    const m = await getMailbox(deps, c.get('actor').team.id, c.req.param('id'));
    const e = await getThreadEmail(deps, m, c.req.param('thread'), c.req.param('email'));
    return sandboxedHtml(c, e.html ?? '');
  });
  app.post('/t/:team/mailboxes/:id/threads/:thread/reply', async (c) => {
    const deps = c.get('deps');
    const actor = c.get('actor');
    const m = await getMailbox(deps, actor.team.id, c.req.param('id'));
    if (!mayReply(c, m)) authorize(actor.role, 'mailboxes:write');
    const f = c.get('form');
    return orFormAgain(
      c,
      async () => {
        const body = validate(ReplyInboxEmailRequest, { text: f.text ?? '', reply_all: f.reply_all === 'on' });
        if (!f.email_id) throw new ApiError('validation_error', '`email_id` is required: the message replied to.');
        await replyToEmail(
          deps,
          { userId: actor.user.id, name: actor.user.name || actor.user.email },
          m,
          c.req.param('thread'),
          f.email_id,
          { text: body.text, replyAll: body.reply_all, attachments: [] },
        );
        return c.redirect(`${threadPath(m, c.req.param('thread'))}?notice=sent`, 303);
      },
      (error) => readerPage(c, { error, text: f.text ?? '', replyAll: f.reply_all === 'on' }),
    );
  });
};
