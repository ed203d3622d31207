import { html } from 'hono/html';
import { listInboxThreads } from '@mailstack/core/domain/mailboxes/list-inbox-threads';
import { table, when } from '../view.ts';
import type { MailboxSection } from './mailboxes.ts';

/** Threads the mailbox's page shows: the latest, every folder. */
const SHOWN = 20;

/**
 * The mailbox's latest threads with their state (folder, read or unread, labels, count) and its
 * counters, as `resend.inboxes.threads.list` and `inboxes.get` give them: what agents and the SDK
 * changed, seen by the people of the team.
 */
export const threadsSection: MailboxSection = async ({ c, mailbox: m }) => {
  const { items: rows } = await listInboxThreads(
    c.get('deps'),
    m,
    { folders: ['inbox', 'archive', 'spam', 'sent', 'trash'] },
    { limit: SHOWN },
  );
  return html`<h2>Threads</h2>
<p class="muted">${m.unread} unread · ${m.drafts} draft${m.drafts === 1 ? '' : 's'} · last received ${when(m.lastReceivedAt)}. The latest ${SHOWN}, every folder.</p>
${table(
  'Mailbox threads',
  ['Subject', 'From', 'Folder', 'State', 'Labels', 'Emails', 'Latest'],
  rows.map(
    (t) =>
      html`<tr><td><a href="/t/${m.teamId}/mailboxes/${m.id}/threads/${t.id}">${t.subject ?? '(no subject)'}</a></td><td>${t.from ?? ''}</td><td>${t.folder}</td><td>${t.read ? 'read' : html`<strong>unread</strong>`}</td><td>${t.labels.map((l) => html`<span class="label" title="${l.color}">${l.name}</span> `)}</td><td>${t.email_count}</td><td>${when(t.received_at)}</td></tr>`,
  ),
  'No mail in this mailbox yet.',
)}`;
};
