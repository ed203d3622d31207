import type * as v from 'valibot';
import { jsonSchemaOf, propertiesOf } from '@mailstack/core/http/openapi';
import { parseAgentBody } from '@mailstack/core/schemas/mailbox-agent';
import { grantActor, mailboxCallerOfGrant } from '@mailstack/core/domain/mailboxes/grant-caller';
import type { MailboxCaller } from '@mailstack/core/domain/mailboxes/mailbox-key';
import type { MailboxActor } from '@mailstack/core/domain/mailboxes/activity';
import { isScope, roleMayGrant } from '@mailstack/core/domain/oauth/scopes';
import type { Deps } from '@mailstack/core/runtime/deps';
import { outputSchemaOf, type McpTool, type ToolScope } from './tool.ts';

/** How a mailbox tool of the hosted server is declared: the mailbox agent's request schema and use case. */
export interface MailboxToolDeclaration<S extends v.GenericSchema> {
  readonly name: string;
  readonly scope: ToolScope;
  readonly orScope?: ToolScope;
  readonly description: string;
  /** The mailbox agent API's body schema; its fields are the tool's arguments beside `mailbox_id`. */
  readonly body: S;
  /** The mailbox agent API's answer schema (the tool's output schema). */
  readonly answer: v.GenericSchema;
  /** Runs the mailbox agent's use case in the chosen mailbox. */
  run(deps: Deps, caller: MailboxCaller, who: MailboxActor, input: v.InferOutput<S>): Promise<object>;
}

/**
 * Builds a hosted MCP tool over a mailbox agent use case: `mailbox_id` (one of the mailboxes the
 * person chose at consent, 404 otherwise) plus the agent API's body fields, validated by the same
 * schema (400 naming the field), run as the grant's mailbox caller, so a tool refuses and answers
 * as POST /api/mailbox-agent/... does and leaves the same activity record (via `mcp`).
 */
export const mailboxTool = <S extends v.GenericSchema>(declaration: MailboxToolDeclaration<S>): McpTool => {
  const fields = propertiesOf(jsonSchemaOf(declaration.body, 'input'));
  const inputSchema = {
    type: 'object' as const,
    properties: {
      mailbox_id: {
        type: 'string',
        description: "The mailbox's id: one of the mailboxes the person chose when connecting you.",
      },
      ...fields.properties,
    },
    required: ['mailbox_id', ...fields.required],
  };
  return {
    name: declaration.name,
    scope: declaration.scope,
    ...(declaration.orScope ? { orScope: declaration.orScope } : {}),
    description: declaration.description,
    inputSchema,
    outputSchema: outputSchemaOf(declaration.name, declaration.answer),
    annotations: { readOnlyHint: false, destructiveHint: false },
    call: async (deps, actor, args) => {
      const { mailbox_id: mailboxId, ...body } = args;
      // The mailbox permissions follow the scopes the person's role still allows.
      const scopes = actor.principal.scopes.filter((s) => isScope(s) && roleMayGrant(actor.role, s));
      const caller = await mailboxCallerOfGrant(deps, { ...actor.principal, scopes }, mailboxId);
      return declaration.run(deps, caller, grantActor(caller), parseAgentBody(declaration.body, body));
    },
  };
};
