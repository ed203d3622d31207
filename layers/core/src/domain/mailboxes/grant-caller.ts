import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem } from '../../table/ops.ts';
import type { OAuthPrincipal } from '../oauth/tokens.ts';
import { getUser } from '../people/user.ts';
import { mailboxFromItem } from './mailbox.ts';
import type { MailboxCaller, MailboxPermission } from './mailbox-key.ts';
import type { MailboxActor } from './activity.ts';
import { MailboxAgentError } from './agent-error.ts';

/** The mail:* scope that stands for each mailbox permission (spec §5). */
const SCOPE_OF: Readonly<Record<MailboxPermission, string>> = {
  read: 'mail:read',
  draft: 'mail:draft',
  send: 'mail:send',
};

/**
 * The mailbox caller a person's OAuth grant stands for in one mailbox, so the hosted MCP server
 * runs the mailbox agent's own use cases: only in a mailbox chosen at consent that the person
 * still owns (anything else is 404, as a mailbox key never sees another mailbox), with the
 * permissions of the grant's mail:* scopes (`scopes` are the ones the person's role still
 * allows). The key is synthetic: the grant's id, named `OAuth: <person>` in the activity.
 * Without mail:send a send asks the owner's approval, as a key without the send permission does.
 */
export const mailboxCallerOfGrant = async (
  deps: Deps,
  principal: Pick<OAuthPrincipal, 'grantId' | 'teamId' | 'userId' | 'scopes' | 'mailboxIds'>,
  mailboxId: unknown,
): Promise<MailboxCaller> => {
  if (typeof mailboxId !== 'string' || mailboxId === '')
    throw new MailboxAgentError(
      'invalid_request',
      '`mailbox_id` is required: the id of a mailbox you chose when connecting this agent.',
    );
  const notYours = () =>
    new MailboxAgentError(
      'not_found',
      `No mailbox ${mailboxId} among the mailboxes chosen when this agent was connected.`,
    );
  if (!principal.mailboxIds.includes(mailboxId)) throw notYours();
  const [item, user] = await Promise.all([
    getItem(deps, keys.mailbox.item(principal.teamId, mailboxId)),
    getUser(deps, principal.userId),
  ]);
  if (!item) throw notYours();
  const mailbox = mailboxFromItem(item);
  // The person lends their own mailbox: once it has another owner, the grant no longer reaches it.
  if (mailbox.ownerUserId !== principal.userId) throw notYours();
  const permissions = (Object.keys(SCOPE_OF) as MailboxPermission[]).filter((p) =>
    principal.scopes.includes(SCOPE_OF[p]),
  );
  const key = {
    id: principal.grantId,
    teamId: mailbox.teamId,
    mailboxId: mailbox.id,
    name: `OAuth: ${user?.name || user?.email || principal.userId}`,
    permissions,
    expiresAt: null,
    revoked: false,
    createdBy: principal.userId,
    createdAt: mailbox.createdAt,
  };
  return { key, mailbox, can: (p) => permissions.includes(p) };
};

/** Who acts through a grant's mailbox caller, as the mailbox activity records it. */
export const grantActor = (caller: MailboxCaller): MailboxActor => ({
  actor: `grant:${caller.key.id}`,
  actorName: caller.key.name,
  via: 'mcp',
});
