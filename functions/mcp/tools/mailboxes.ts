import { createMailbox, deleteMailbox, listMailboxes, renameMailbox } from '@mailstack/core/domain/mailboxes/manage-mailboxes';
import type { Mailbox } from '@mailstack/core/domain/mailboxes/mailbox';
import { authorize } from '@mailstack/core/domain/people/roles';
import { validationError } from '@mailstack/core/errors/api-error';
import type { McpTool } from '../tool.ts';

/**
 * The team's mailboxes on the hosted MCP server (spec §5 scopes mailboxes:read and
 * mailboxes:write), over the use cases the dashboard's mailbox pages call. A mailbox made here
 * is owned by the person who connected the agent; renaming and deleting need the role that may
 * do so in the dashboard (owner or admin), and a mailbox's keys stay the dashboard's.
 */
const view = (m: Mailbox) => ({ object: 'mailbox', id: m.id, address: m.address, name: m.name, domain_id: m.domainId, owner_user_id: m.ownerUserId, created_at: m.createdAt });

const text = (args: Readonly<Record<string, unknown>>, name: string, required: boolean): string | undefined => {
  const value = args[name];
  if (value === undefined || value === null) {
    if (required) throw validationError(`\`${name}\` is required.`);
    return undefined;
  }
  if (typeof value !== 'string') throw validationError(`\`${name}\` must be a string.`);
  return value;
};

const ID = { type: 'string', description: 'The mailbox\'s id (list_mailboxes gives them).' };

export const listMailboxesTool: McpTool = {
  name: 'list_mailboxes',
  scope: 'mailboxes:read',
  description: 'List the team\'s mailboxes: the named addresses on its verified domains that receive mail, each with its id, address, display name, domain and owner. Their mail is read with the mail:* tools, only in the mailboxes chosen when you were connected.',
  inputSchema: { type: 'object', properties: {} },
  annotations: { readOnlyHint: true, destructiveHint: false },
  call: async (deps, actor) => ({ object: 'list', data: (await listMailboxes(deps, actor.caller.team.id)).map(view) }),
};

export const createMailboxTool: McpTool = {
  name: 'create_mailbox',
  scope: 'mailboxes:write',
  description: 'Create a mailbox: local_part@<a verified domain of the team> (domain_id from list_domains), with an optional display name; the connected person owns it and makes its keys in the dashboard. The domain\'s records gain the inbound MX. 422 for an unverified domain or a bad local part, 409 when the address is already a mailbox.',
  inputSchema: {
    type: 'object',
    properties: {
      domain_id: { type: 'string', description: 'A verified domain of the team.' },
      local_part: { type: 'string', description: 'The part before the @: letters, digits and . _ + - (at most 64).' },
      name: { type: 'string', description: 'The display name its mail goes out with (optional).' },
    },
    required: ['domain_id', 'local_part'],
  },
  annotations: { readOnlyHint: false, destructiveHint: false },
  call: async (deps, actor, args) => {
    authorize(actor.role, 'mailboxes:write');
    return view(await createMailbox(deps, {
      teamId: actor.caller.team.id, domainId: text(args, 'domain_id', true)!, localPart: text(args, 'local_part', true)!, name: text(args, 'name', false), ownerUserId: actor.principal.userId,
    }));
  },
};

export const renameMailboxTool: McpTool = {
  name: 'rename_mailbox',
  scope: 'mailboxes:write',
  description: 'Rename a mailbox: a new local part moves its address (mail to the old one is no longer accepted), and/or a new display name. 409 when the new address is already a mailbox.',
  inputSchema: {
    type: 'object',
    properties: { id: ID, local_part: { type: 'string', description: 'The new part before the @ (optional).' }, name: { type: 'string', description: 'The new display name (optional).' } },
    required: ['id'],
  },
  annotations: { readOnlyHint: false, destructiveHint: false },
  call: async (deps, actor, args) => {
    authorize(actor.role, 'mailboxes:write');
    return view(await renameMailbox(deps, actor.caller.team.id, text(args, 'id', true)!, { localPart: text(args, 'local_part', false), name: text(args, 'name', false) }));
  },
};

export const deleteMailboxTool: McpTool = {
  name: 'delete_mailbox',
  scope: 'mailboxes:write',
  description: 'Delete a mailbox: its address stops accepting mail at once and its keys stop working; its stored messages stay readable through the receiving tools.',
  inputSchema: { type: 'object', properties: { id: ID }, required: ['id'] },
  annotations: { readOnlyHint: false, destructiveHint: true },
  call: async (deps, actor, args) => {
    authorize(actor.role, 'mailboxes:write');
    const m = await deleteMailbox(deps, actor.caller.team.id, text(args, 'id', true)!);
    return { object: 'mailbox', id: m.id, deleted: true };
  },
};
