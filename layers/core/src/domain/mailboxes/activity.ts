import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { putItem, type Item } from '../../table/ops.ts';
import { queryPage } from '../../table/query-page.ts';
import { MAILBOX_ACTIVITY_DAYS } from '../../limits.ts';

/**
 * The activity of a mailbox, shown in its panel: every read, listing, draft save, send,
 * approval request, approval and rejection, by whom (a mailbox key or a person) and on what, and
 * every message received (by its sender).
 */
export type MailboxActivityAction =
  | 'list'
  | 'read'
  | 'draft'
  | 'send'
  | 'approval_requested'
  | 'approved'
  | 'rejected'
  | 'receive';

export interface MailboxActivity {
  readonly id: string;
  readonly at: string;
  readonly action: MailboxActivityAction;
  /** `key:<id>` for a mailbox key (its name in `actorName`), `grant:<id>` for a person's OAuth grant on the hosted MCP server, `user:<id>` for a person. */
  readonly actor: string;
  readonly actorName: string;
  /** The folder listed, or the message or draft acted on. */
  readonly subject: string;
  /** Where it came from: the agent API, the mailbox MCP endpoint, the dashboard, or mail received (SMTP). */
  readonly via: 'api' | 'mcp' | 'dashboard' | 'inbound';
  readonly detail: string;
}

/** Who acts on a mailbox: a key (through the API or MCP), a person's OAuth grant (hosted MCP) or a person (in the dashboard). */
export interface MailboxActor {
  readonly actor: string;
  readonly actorName: string;
  readonly via: MailboxActivity['via'];
}

/** A mailbox key acting through the agent API or the mailbox MCP endpoint, as its records name it. */
export const keyActor = (key: { readonly id: string; readonly name: string }, via: 'api' | 'mcp'): MailboxActor => ({
  actor: `key:${key.id}`,
  actorName: key.name,
  via,
});

/** Records one activity of a mailbox (kept MAILBOX_ACTIVITY_DAYS). */
export const recordActivity = async (
  deps: Deps,
  teamId: string,
  mailboxId: string,
  who: MailboxActor,
  action: MailboxActivityAction,
  subject: string,
  detail = '',
): Promise<void> => {
  await putItem(deps, activityItem(deps, teamId, mailboxId, who, action, subject, detail));
};

/** The item of an activity record (for a transaction that writes it with what it records). */
export const activityItem = (
  deps: Deps,
  teamId: string,
  mailboxId: string,
  who: MailboxActor,
  action: MailboxActivityAction,
  subject: string,
  detail = '',
): Item => {
  const id = deps.ids.next();
  const now = deps.clock.now();
  return {
    ...keys.mailbox.activity(teamId, mailboxId, id),
    type: 'mailbox_activity',
    id,
    at: new Date(now).toISOString(),
    action,
    actor: who.actor,
    actor_name: who.actorName,
    subject,
    via: who.via,
    detail: detail.slice(0, 500),
    ttl: Math.floor(now / 1000) + MAILBOX_ACTIVITY_DAYS * 86_400,
  };
};

/** The latest activity of a mailbox, newest first. */
export const listActivity = async (
  deps: Deps,
  teamId: string,
  mailboxId: string,
  limit = 100,
): Promise<MailboxActivity[]> => {
  const { items } = await queryPage(
    deps,
    { pk: keys.mailbox.threadPartition(teamId, mailboxId), prefix: keys.mailbox.activityPrefix },
    { limit },
  );
  return items.map((i) => ({
    id: i.id,
    at: i.at,
    action: i.action,
    actor: i.actor,
    actorName: i.actor_name ?? '',
    subject: i.subject ?? '',
    via: i.via,
    detail: i.detail ?? '',
  }));
};
