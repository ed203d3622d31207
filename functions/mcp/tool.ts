import type * as v from 'valibot';
import { jsonSchemaOf, propertiesOf } from '@mailstack/core/http/openapi';
import { pathParameters } from '@mailstack/core/http/path-ids';
import type { RouteHandler } from '@mailstack/core/http/api-route';
import { validationError } from '@mailstack/core/errors/api-error';
import type { McpActor } from './server.ts';
import type { Deps } from '@mailstack/core/runtime/deps';
import { SCOPES, type Scope } from '@mailstack/core/domain/oauth/scopes';

/**
 * The scopes of the hosted MCP server's OAuth tokens that its tools need (spec §5). The mail:*
 * scopes act only in the mailboxes the person chose at consent (the caller carries them):
 * mail:read reads received mail, mail:draft writes drafts, mail:send sends them. mailboxes:read
 * lists the team's mailboxes, mailboxes:write creates, renames and deletes them. Every scope of
 * SCOPES but offline_access, which belongs to the token.
 */
export const TOOL_SCOPES = SCOPES.filter((s): s is Exclude<Scope, 'offline_access'> => s !== 'offline_access');
export type ToolScope = (typeof TOOL_SCOPES)[number];

type Json = Record<string, any>;

/** How a tool is declared: one REST route, its scope, and a description for a model. */
export interface ToolDeclaration {
  /** The tool's name (snake_case, a verb first: `send_email`). */
  readonly name: string;
  /** The scope a token needs to see and call the tool. */
  readonly scope: ToolScope;
  /** The manifest route key the tool stands for (`POST /emails`). */
  readonly route: string;
  /** The route's handler (its declaration validates the input, its handler runs the use case). */
  readonly handler: RouteHandler;
  /** What the tool does and when to use it, written for a model. */
  readonly description: string;
  /**
   * The argument that carries the whole request body, for a route whose body is not an object
   * (an array of items, or either form): `emails` for the batch send. Otherwise the body's
   * fields are the tool's arguments.
   */
  readonly bodyArgument?: {
    readonly name: string;
    readonly description: string;
    /** The schema of each item, when the route takes an array it validates item by item (the batches). */
    readonly items?: v.GenericSchema;
  };
}

/** A tool of the MCP server: its name, scope, JSON input schema, and how to call it as a principal. */
export interface McpTool {
  /** The tool's name (snake_case, a verb first: `send_email`). */
  readonly name: string;
  /** The scope a token needs to see and call the tool. */
  readonly scope: ToolScope;
  /**
   * A second scope that also lists and calls the tool, for a tool whose outcome depends on the
   * scopes held (send_mailbox_draft with mail:draft alone asks the owner's approval).
   * @default - the tool needs `scope`
   */
  readonly orScope?: ToolScope;
  /** What the tool does and when to use it, written for a model. */
  readonly description: string;
  readonly inputSchema: Json & { type: 'object' };
  /**
   * The JSON Schema of a success's `structuredContent` (MCP tools, output schema): the same
   * answer schema as the REST route's (or the use case's view). A tool that declares it returns
   * its answer both as `structuredContent` and as JSON text.
   */
  readonly outputSchema: Json & { type: 'object' };
  /** The MCP tool annotations tools/list reports. */
  readonly annotations: { readonly readOnlyHint: boolean; readonly destructiveHint: boolean };
  /** Runs the tool as the principal; its answer is the tool result's body, a thrown ApiError or MailboxAgentError its refusal. */
  call(deps: Deps, actor: McpActor, args: Readonly<Record<string, unknown>>): Promise<unknown>;
}

/**
 * A tool's output schema from an answer schema: its JSON Schema, which MCP wants an object at
 * the root (an answer that is one of several objects keeps its anyOf under `type: 'object'`).
 * An answer that is not an object cannot be `structuredContent`: that fails here, at load.
 */
export const outputSchemaOf = (name: string, schema: v.GenericSchema): Json & { type: 'object' } => {
  const json = jsonSchemaOf(schema);
  const variants: Json[] = json.anyOf ?? json.oneOf ?? [json];
  if (json.type !== 'object' && !variants.every((variant) => variant.type === 'object')) {
    throw new Error(
      `tool ${name}: its answer is not an object (${JSON.stringify(json).slice(0, 80)}), so it cannot be structuredContent`,
    );
  }
  return { ...json, type: 'object' };
};

/** A tool that runs one REST route: its declaration and the MCP tool built from it. */
export interface RouteTool extends McpTool, ToolDeclaration {}

/** The tool argument standing for a request header: `x-batch-validation` -> `batch_validation`. */
const headerArgument = (header: string): string => header.replace(/^x-/, '').replace(/-/g, '_');

/** A query string value as a model sends it: `limit: 10` means `?limit=10` (and its default is the number 10). */
const queryArgumentSchema = (schema: Json): Json => {
  const { pattern, type, ...rest } = schema;
  if (type !== 'string' || pattern !== '^\\d+$') return schema;
  return { ...rest, type: 'integer', ...(typeof rest.default === 'string' ? { default: Number(rest.default) } : {}) };
};

const pathArgumentSchema = (resource: string): Json => ({
  type: 'string',
  description:
    resource === 'contact' ? 'The contact: its id, or its email address.' : `The ${resource.replace(/_/g, ' ')}'s id.`,
});

const asQueryValue = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * Builds a tool from its REST route: the input schema comes from the route's own valibot
 * schemas (path parameters, query, headers, body), and a call is validated by those schemas
 * and answered by the route's handler, so a tool refuses and answers exactly as the REST route
 * does. Two parts naming the same argument fail here, at load.
 */
export const routeTool = (declaration: ToolDeclaration): RouteTool => {
  const { route: routeKey, handler } = declaration;
  const path = routeKey.split(' ')[1] ?? '';
  const route = handler.route;
  const properties: Record<string, Json> = {};
  const required = new Set<string>();
  const add = (name: string, schema: Json, isRequired: boolean) => {
    if (name in properties)
      throw new Error(`tool ${declaration.name}: the argument \`${name}\` would stand for two parts of ${routeKey}`);
    properties[name] = schema;
    if (isRequired) required.add(name);
  };

  const pathNames = pathParameters(path).map(({ name, resource }) => {
    add(name, pathArgumentSchema(resource), true);
    return name;
  });
  const queryNames: string[] = [];
  if (route.query) {
    const query = propertiesOf(jsonSchemaOf(route.query, 'input'));
    for (const [name, schema] of Object.entries(query.properties)) {
      add(name, queryArgumentSchema(schema), query.required.has(name));
      queryNames.push(name);
    }
  }
  const headerNames = new Map<string, string>();
  if (route.headers) {
    const headers = propertiesOf(jsonSchemaOf(route.headers, 'input'));
    for (const [header, schema] of Object.entries(headers.properties)) {
      const name = headerArgument(header);
      add(name, schema, headers.required.has(header));
      headerNames.set(name, header);
    }
  }
  if (route.body) {
    const body = jsonSchemaOf(route.body, 'input');
    if (declaration.bodyArgument) {
      const { name, description, items } = declaration.bodyArgument;
      add(name, { ...body, ...(items ? { items: jsonSchemaOf(items, 'input') } : {}), description }, true);
    } else {
      const fields = propertiesOf(body);
      for (const [name, schema] of Object.entries(fields.properties)) add(name, schema, fields.required.has(name));
    }
  } else if (declaration.bodyArgument) {
    throw new Error(`tool ${declaration.name}: ${routeKey} takes no body, so it has no body argument`);
  }

  const inputSchema = {
    type: 'object' as const,
    properties,
    ...(required.size > 0 ? { required: [...required] } : {}),
  };

  const call = async (deps: Deps, { caller }: McpActor, args: Readonly<Record<string, unknown>>): Promise<unknown> => {
    const rest: Record<string, unknown> = { ...args };
    const pathValues: Record<string, string> = {};
    for (const name of pathNames) {
      const value = rest[name];
      delete rest[name];
      if (typeof value !== 'string' || value === '') {
        throw validationError(
          `\`${name}\` is required: ${(properties[name]!.description as string).replace(/^The/, 'the')}`,
        );
      }
      pathValues[name] = value;
    }
    const query: Record<string, string> = {};
    for (const name of queryNames) {
      if (rest[name] !== undefined && rest[name] !== null) query[name] = asQueryValue(rest[name]);
      delete rest[name];
    }
    const headers: Record<string, string> = {};
    for (const [name, header] of headerNames) {
      if (rest[name] !== undefined && rest[name] !== null) headers[header] = asQueryValue(rest[name]);
      delete rest[name];
    }
    let body: unknown;
    if (route.body && !declaration.bodyArgument) {
      // Whatever is left is the body, so an unknown field meets the route's own refusal.
      body = rest;
    } else {
      if (declaration.bodyArgument) {
        body = rest[declaration.bodyArgument.name];
        delete rest[declaration.bodyArgument.name];
      }
      const unknown = Object.keys(rest);
      if (unknown.length > 0) {
        const takes =
          Object.keys(properties)
            .map((n) => `\`${n}\``)
            .join(', ') || 'no arguments';
        throw validationError(
          `Unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `\`${n}\``).join(', ')}: ${declaration.name} takes ${takes}.`,
        );
      }
    }
    return handler.run({ routeKey, caller, deps, pathParameters: pathValues, query, headers, body });
  };

  const annotations = {
    readOnlyHint: routeKey.startsWith('GET ') || declaration.name.startsWith('batch_get'),
    destructiveHint: routeKey.startsWith('DELETE '),
  };
  return {
    ...declaration,
    inputSchema,
    outputSchema: outputSchemaOf(declaration.name, route.response),
    annotations,
    call,
  };
};
