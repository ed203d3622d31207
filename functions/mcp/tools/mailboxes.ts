import * as v from 'valibot';
import { createMailbox } from '@mailstack/core/domain/mailboxes/create-mailbox';
import { deleteMailbox } from '@mailstack/core/domain/mailboxes/delete-mailbox';
import { listMailboxes } from '@mailstack/core/domain/mailboxes/list-mailboxes';
import { renameMailbox } from '@mailstack/core/domain/mailboxes/rename-mailbox';
import type { Mailbox } from '@mailstack/core/domain/mailboxes/mailbox';
import { authorize } from '@mailstack/core/domain/people/roles';
import { validate } from '@mailstack/core/schemas/validate';
import { jsonSchemaOf, propertiesOf } from '@mailstack/core/http/openapi';
import type { McpActor } from '../server.ts';
import type { Deps } from '@mailstack/core/runtime/deps';
import { outputSchemaOf, type McpTool, type ToolScope } from '../tool.ts';

/**
 * The team's mailboxes on the hosted MCP server (spec §5 scopes mailboxes:read and
 * mailboxes:write), over the use cases the dashboard's mailbox pages call. A mailbox made here
 * is owned by the person who connected the agent; writing needs the role that may do so in the
 * dashboard (owner or admin), and a mailbox's keys stay the dashboard's.
 */
const view = (m: Mailbox) => ({
  object: 'mailbox',
  id: m.id,
  address: m.address,
  name: m.name,
  domain_id: m.domainId,
  owner_user_id: m.ownerUserId,
  created_at: m.createdAt,
});

/** A mailbox as the tools answer it (their output schemas). */
const MailboxObject = v.object({
  object: v.literal('mailbox'),
  id: v.string(),
  address: v.pipe(v.string(), v.description("The mailbox's address: local part @ a domain of the team.")),
  name: v.nullable(v.string()),
  domain_id: v.string(),
  owner_user_id: v.pipe(v.string(), v.description('The person who owns the mailbox and makes its keys.')),
  created_at: v.string(),
});
const MailboxList = v.object({ object: v.literal('list'), data: v.array(MailboxObject) });
const DeletedMailbox = v.object({ object: v.literal('mailbox'), id: v.string(), deleted: v.literal(true) });

const Id = v.pipe(v.string('must be a string.'), v.description("The mailbox's id (list_mailboxes gives them)."));

/** A tool whose arguments are a valibot schema (validated as the REST routes validate: 422 naming the field). */
const tool = <S extends v.GenericSchema>(declaration: {
  name: string;
  scope: ToolScope;
  description: string;
  args: S;
  answer: v.GenericSchema;
  readOnly: boolean;
  destructive?: boolean;
  run(deps: Deps, actor: McpActor, input: v.InferOutput<S>): Promise<unknown>;
}): McpTool => {
  const { properties, required } = propertiesOf(jsonSchemaOf(declaration.args, 'input'));
  return {
    name: declaration.name,
    scope: declaration.scope,
    description: declaration.description,
    inputSchema: { type: 'object', properties, ...(required.size ? { required: [...required] } : {}) },
    outputSchema: outputSchemaOf(declaration.name, declaration.answer),
    annotations: { readOnlyHint: declaration.readOnly, destructiveHint: declaration.destructive === true },
    call: async (deps, actor, args) => {
      if (declaration.scope === 'mailboxes:write') authorize(actor.role, 'mailboxes:write');
      return declaration.run(deps, actor, validate(declaration.args, args));
    },
  };
};

export const listMailboxesTool = tool({
  name: 'list_mailboxes',
  scope: 'mailboxes:read',
  description:
    "List the team's mailboxes: the named addresses on its verified domains that receive mail, each with its id, address, display name, domain and owner. Their mail is read with the mail:* tools, only in the mailboxes chosen when you were connected.",
  args: v.object({}),
  answer: MailboxList,
  readOnly: true,
  run: async (deps, actor) => ({ object: 'list', data: (await listMailboxes(deps, actor.caller.team.id)).map(view) }),
});

export const createMailboxTool = tool({
  name: 'create_mailbox',
  scope: 'mailboxes:write',
  description:
    "Create a mailbox: local_part@<a verified domain of the team> (domain_id from list_domains), with an optional display name; the connected person owns it and makes its keys in the dashboard. The domain's records gain the inbound MX. 422 for an unverified domain or a bad local part, 409 when the address is already a mailbox.",
  args: v.object({
    domain_id: v.pipe(
      v.string('is required: a verified domain of the team.'),
      v.description('A verified domain of the team.'),
    ),
    local_part: v.pipe(
      v.string('is required: the part before the @.'),
      v.description('The part before the @: letters, digits and . _ + - (at most 64).'),
    ),
    name: v.optional(
      v.pipe(v.string('must be a string.'), v.description('The display name its mail goes out with (optional).')),
    ),
  }),
  answer: MailboxObject,
  readOnly: false,
  run: async (deps, actor, input) =>
    view(
      await createMailbox(deps, {
        teamId: actor.caller.team.id,
        domainId: input.domain_id,
        localPart: input.local_part,
        name: input.name,
        ownerUserId: actor.principal.userId,
      }),
    ),
});

export const renameMailboxTool = tool({
  name: 'rename_mailbox',
  scope: 'mailboxes:write',
  description:
    'Rename a mailbox: a new local part moves its address (mail to the old one is no longer accepted), and/or a new display name. 409 when the new address is already a mailbox.',
  args: v.object({
    id: Id,
    local_part: v.optional(
      v.pipe(v.string('must be a string.'), v.description('The new part before the @ (optional).')),
    ),
    name: v.optional(v.pipe(v.string('must be a string.'), v.description('The new display name (optional).'))),
  }),
  answer: MailboxObject,
  readOnly: false,
  run: async (deps, actor, input) =>
    view(await renameMailbox(deps, actor.caller.team.id, input.id, { localPart: input.local_part, name: input.name })),
});

export const deleteMailboxTool = tool({
  name: 'delete_mailbox',
  scope: 'mailboxes:write',
  description:
    'Delete a mailbox: its address stops accepting mail at once, its keys stop working and its drafts are discarded; its stored messages stay readable through the receiving tools.',
  args: v.object({ id: Id }),
  answer: DeletedMailbox,
  readOnly: false,
  destructive: true,
  run: async (deps, actor, input) => {
    const m = await deleteMailbox(deps, actor.caller.team.id, input.id);
    return { object: 'mailbox', id: m.id, deleted: true };
  },
});
