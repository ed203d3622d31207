import * as v from 'valibot';
import { toJsonSchema, toJsonSchemaDefs, type JsonSchema } from '@valibot/to-json-schema';
import { ERROR_STATUS, type ErrorName } from '../errors/catalog.ts';
import type { RouteDeclaration } from './api-route.ts';
import { pathParameters } from './path-ids.ts';

/** The API version the description names (spec §9). */
export const API_VERSION = '1.0.0';

/** One route of the manifest with its declaration: what the generator describes. */
export interface DescribedRoute {
  readonly method: string;
  readonly path: string;
  /** The resource area (the operation's tag). */
  readonly area: string;
  readonly route: RouteDeclaration;
}

type Json = Record<string, any>;

const customMessage = (schema: v.GenericSchema): string | undefined => {
  const message = (schema as { message?: unknown }).message;
  return typeof message === 'string' ? message : undefined;
};

/**
 * A valibot schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect). Requests are described by
 * their input (before transforms); a field the schema refuses outright (`v.custom` returning
 * false) is described as never valid, with the refusal's message.
 */
const conversion = (typeMode: 'input' | 'ignore') => ({
  target: 'draft-2020-12' as const,
  errorMode: 'ignore' as const,
  typeMode,
  overrideSchema: ({ valibotSchema }: { valibotSchema: v.GenericSchema }) =>
    valibotSchema.type === 'custom'
      ? ({ not: {}, description: customMessage(valibotSchema) ?? 'Not supported.' } as JsonSchema)
      : undefined,
});

export const jsonSchemaOf = (schema: v.GenericSchema, typeMode: 'input' | 'ignore' = 'ignore'): Json => {
  const { $schema: _dialect, ...rest } = toJsonSchema(schema, conversion(typeMode)) as Json;
  return rest;
};

/** Where the document's named schemas live. */
const COMPONENT = '#/components/schemas/';

/** A JSON Schema whose `#/$defs/<name>` references point into the document's components instead. */
const toComponentRefs = (node: unknown): any => {
  if (Array.isArray(node)) return node.map(toComponentRefs);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' ? value.replace(/^#\/\$defs\//, COMPONENT) : toComponentRefs(value),
    ]),
  );
};

/**
 * Answer schemas as JSON Schema, where each schema of `named` (the resource objects) is a
 * `$ref` to its component instead of a copy, and the components themselves.
 */
const namedSchemas = (named: Readonly<Record<string, v.GenericSchema>>) => ({
  schemaOf: (schema: v.GenericSchema): Json => {
    const {
      $schema: _dialect,
      $defs: _defs,
      ...rest
    } = toJsonSchema(schema, { ...conversion('ignore'), definitions: { ...named } }) as Json;
    return toComponentRefs(rest);
  },
  components: (): Record<string, Json> => toComponentRefs(toJsonSchemaDefs({ ...named }, conversion('ignore'))),
});

const pascal = (word: string): string =>
  word
    .split('_')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

/**
 * The name of a shared answer shape the routes build alike rather than share as one schema, or
 * undefined: a list envelope of a named schema (`TopicList` for a list of `TopicSummary` or of
 * `Topic`, else the item's own name and `List`), `{object, id}` (`TopicRef`, what most writes
 * answer) and `{object, id, deleted: true}` (`DeletedTopic`).
 */
const sharedShapeName = (node: Json): string[] | undefined => {
  const { properties: p } = node;
  if (node.type !== 'object' || !p) return undefined;
  const keys = Object.keys(p).sort().join();
  if (keys === 'data,has_more,object' && p.object?.const === 'list' && p.data?.type === 'array') {
    const ref = p.data.items?.$ref;
    if (typeof ref !== 'string' || !ref.startsWith(COMPONENT)) return undefined;
    const item = ref.slice(COMPONENT.length);
    return [`${item.replace(/Summary$/, '')}List`, `${item}List`];
  }
  if (typeof p.object?.const !== 'string' || p.id?.format !== 'uuid') return undefined;
  if (keys === 'id,object') return [`${pascal(p.object.const)}Ref`];
  if (keys === 'deleted,id,object' && p.deleted?.const === true) return [`Deleted${pascal(p.object.const)}`];
  return undefined;
};

/** Names the shared answer shapes (sharedShapeName) under components.schemas and refers to them. */
const nameSharedShapes = (node: unknown, schemas: Record<string, Json>): any => {
  if (Array.isArray(node)) return node.map((n) => nameSharedShapes(n, schemas));
  if (!node || typeof node !== 'object') return node;
  const candidates = sharedShapeName(node as Json);
  if (candidates) {
    const fits = (name: string) => !schemas[name] || JSON.stringify(schemas[name]) === JSON.stringify(node);
    const name = candidates.find(fits);
    if (!name)
      throw new Error(
        `openapi: the answer shape ${JSON.stringify(node).slice(0, 120)} would be named ${candidates.join(' or ')}, which name other schemas`,
      );
    schemas[name] = node as Json;
    return { $ref: `${COMPONENT}${name}` };
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, nameSharedShapes(value, schemas)]));
};

/** The properties of an object schema, through intersections (`allOf`). */
export const propertiesOf = (schema: Json): { properties: Record<string, Json>; required: Set<string> } => {
  const properties: Record<string, Json> = { ...(schema.properties ?? {}) };
  const required = new Set<string>(schema.required ?? []);
  for (const part of schema.allOf ?? []) {
    const inner = propertiesOf(part);
    Object.assign(properties, inner.properties);
    for (const name of inner.required) required.add(name);
  }
  return { properties, required };
};

const parametersIn = (where: 'path' | 'query' | 'header', schema: v.GenericSchema | undefined): Json[] => {
  if (!schema) return [];
  const { properties, required } = propertiesOf(jsonSchemaOf(schema, 'input'));
  return Object.entries(properties).map(([name, s]) => {
    const { description, ...rest } = s;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
};

const pathParams = (path: string, schema: v.GenericSchema | undefined): Json[] => {
  const declared = parametersIn('path', schema);
  return pathParameters(path).map(
    ({ name, resource }) =>
      declared.find((p) => p.name === name) ?? {
        name,
        in: 'path',
        required: true,
        description: `The ${resource.replace(/_/g, ' ')}.`,
        schema: { type: 'string' },
      },
  );
};

/** The error names the HTTP stack itself may answer on a route, before the route's own. */
const stackErrors = (route: RouteDeclaration, path: string): ErrorName[] => {
  const names: ErrorName[] = ['payload_too_large', 'internal_server_error'];
  const json = route.bodyFormat !== 'form';
  if (json) names.push('invalid_payload');
  if (json || route.query || route.params || route.headers) names.push('validation_error');
  if (route.access !== 'public') names.push('missing_api_key', 'invalid_api_key', 'rate_limit_exceeded');
  if (route.access === 'full') names.push('restricted_api_key');
  if (pathParameters(path).length > 0) names.push('not_found');
  for (const m of route.middlewares ?? []) names.push(...(m.doc?.errors ?? []));
  return names;
};

/** Every error name a route may answer, in catalog order. */
export const routeErrors = (route: RouteDeclaration, path: string): ErrorName[] => {
  const all = new Set<ErrorName>([...stackErrors(route, path), ...(route.errors ?? [])]);
  return (Object.keys(ERROR_STATUS) as ErrorName[]).filter((name) => all.has(name));
};

/** The `{statusCode, name, message}` body of a refusal with one of `names` (and OAuth's own fields on the OAuth routes). */
export const errorSchema = (status: number, names: readonly string[], oauth = false): Json => ({
  type: 'object',
  properties: {
    statusCode: { const: status },
    name: { enum: [...names] },
    message: { type: 'string', description: 'What was wrong, which field, what is allowed.' },
    ...(oauth
      ? {
          error: {
            type: 'string',
            description: "The OAuth error code (RFC 6749 §5.2, RFC 7591 §3.2.2), on the protocol's own refusals.",
          },
          error_description: { type: 'string', description: 'The same as message.' },
        }
      : {}),
  },
  required: ['statusCode', 'name', 'message'],
  additionalProperties: false,
});

/**
 * The one error body of the API (every refusal is `{statusCode, name, message}`), and the OAuth
 * routes' with the protocol's own fields: the components each route's refusals refer to.
 */
const errorComponents = (): Record<string, Json> => {
  const names = Object.keys(ERROR_STATUS);
  const describe = (schema: Json) => ({
    ...schema,
    properties: {
      ...schema.properties,
      statusCode: { type: 'integer', description: 'The HTTP status.' },
      name: { ...schema.properties.name, description: "The error's name: what a program branches on." },
    },
  });
  return { Error: describe(errorSchema(0, names)), OAuthError: describe(errorSchema(0, names, true)) };
};

/** A refusal with one of `names` at `status`: the shared error component, narrowed to this route's status and names. */
const errorRef = (status: number, names: readonly string[], oauth: boolean): Json => ({
  $ref: `${COMPONENT}${oauth ? 'OAuthError' : 'Error'}`,
  properties: { statusCode: { const: status }, name: { enum: [...names] } },
});

/**
 * The refusal answers of an operation: `names` grouped by their status (`statusOf`), each status
 * one response naming its errors, with its body schema (`schemaOf`), and a 429 with Retry-After.
 */
export const refusalResponses = <N extends string>(
  names: readonly N[],
  statusOf: (name: N) => number,
  schemaOf: (status: number, names: readonly N[]) => Json,
): Record<string, Json> => {
  const byStatus = new Map<number, N[]>();
  for (const name of names) byStatus.set(statusOf(name), [...(byStatus.get(statusOf(name)) ?? []), name]);
  return Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, list]) => [
        String(status),
        {
          description: list.join(', '),
          ...(status === 429
            ? {
                headers: {
                  'Retry-After': {
                    description: 'Whole seconds until a retry can succeed.',
                    schema: { type: 'integer' },
                  },
                },
              }
            : {}),
          content: { 'application/json': { schema: schemaOf(status, list) } },
        },
      ]),
  );
};

const errorResponses = (route: RouteDeclaration, path: string): Record<string, Json> =>
  refusalResponses(
    routeErrors(route, path),
    (name: ErrorName) => ERROR_STATUS[name],
    (status, names) => errorRef(status, names, route.errorFormat === 'oauth'),
  );

/** A readable, unique operation id: `PATCH /audiences/{id}/contacts/{contact_id}` -> `patchAudiencesByIdContactsByContactId`. */
const operationId = (method: string, path: string): string =>
  method.toLowerCase() +
  path
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      const words = (param ? `by_${param[1]}` : segment).split(/[-_.]/).filter(Boolean);
      return words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
    })
    .join('');

/** How the operations describe bodies: answers through the named components, requests too when named. */
interface Describers {
  readonly answer: (schema: v.GenericSchema) => Json;
  readonly request: (schema: v.GenericSchema) => Json;
}

const describeOperation = ({ method, path, area, route }: DescribedRoute, describe: Describers): Json => {
  const html = route.responseFormat === 'html';
  // Tracking answers: an image or a redirect on success, a plain-text 404 for a bad token.
  const tracking =
    (route.responseFormat === 'gif' || route.responseFormat === 'redirect' || route.responseFormat === 'binary') &&
    route.errorFormat !== 'oauth';
  const success = String(route.status ?? 200);
  const headerSchemas = [route.headers, ...(route.middlewares ?? []).map((m) => m.doc?.headers)].filter(
    (s): s is v.GenericSchema => !!s,
  );
  const body =
    route.bodyFormat === 'form'
      ? {
          required: false,
          content: {
            'application/x-www-form-urlencoded': {
              schema: { type: 'object', additionalProperties: { type: 'string' } },
            },
          },
        }
      : route.body
        ? {
            required: !v.safeParse(route.body, undefined).success,
            content: { 'application/json': { schema: describe.request(route.body) } },
          }
        : undefined;
  const errors = errorResponses(route, path);
  if (html) {
    // The hosted pages answer an invalid or tampered link with an HTML page, not the JSON error body.
    errors['404'] = {
      description: 'The link is not valid (an HTML page).',
      content: { 'text/html': { schema: { type: 'string' } }, ...(errors['404']?.content ?? {}) },
    };
  }
  if (route.errorFormat === 'oauth' && route.responseFormat === 'redirect') {
    // A request whose client or redirect URI cannot be trusted is refused on a page, never redirected.
    errors['400'] = {
      description: 'An unknown client or an unregistered redirect URI (an HTML page; nothing is sent to the URI).',
      content: { 'text/html': { schema: { type: 'string' } }, ...(errors['400']?.content ?? {}) },
    };
  }
  if (tracking)
    errors['404'] = {
      description: 'The token is unknown or tampered with (plain text).',
      content: { 'text/plain': { schema: { type: 'string' } }, ...(errors['404']?.content ?? {}) },
    };
  const successContent = html
    ? { 'text/html': { schema: jsonSchemaOf(route.response) } }
    : route.responseFormat === 'gif'
      ? { 'image/gif': { schema: { type: 'string', contentMediaType: 'image/gif' } } }
      : route.responseFormat === 'binary'
        ? { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } }
        : { 'application/json': { schema: describe.answer(route.response) } };
  return {
    operationId: operationId(method, path),
    tags: [area],
    ...(route.access === 'public' ? { security: [] } : {}),
    ...(route.access === 'full'
      ? { description: 'Needs a full-access API key.' }
      : route.access === 'sending'
        ? { description: 'Any API key of the team (sending access is enough).' }
        : {}),
    parameters: [
      ...pathParams(path, route.params),
      ...parametersIn('query', route.query),
      ...headerSchemas.flatMap((s) => parametersIn('header', s)),
    ],
    ...(body ? { requestBody: body } : {}),
    responses: {
      // A route that only refuses (`response: v.never()`) documents its errors alone.
      ...(route.responseFormat === 'redirect'
        ? {
            [success]:
              route.errorFormat === 'oauth'
                ? {
                    description:
                      "A redirect: to the consent screen, or back to the client's redirect URI with an error.",
                    headers: { Location: { description: 'Where the browser goes next.', schema: { type: 'string' } } },
                  }
                : {
                    description: 'A redirect to the link.',
                    headers: { Location: { description: 'The original link.', schema: { type: 'string' } } },
                  },
          }
        : route.response.type === 'never'
          ? {}
          : {
              [success]: { description: 'Success.', content: successContent },
              ...Object.fromEntries(
                (route.alsoStatus ?? []).map((s) => [String(s), { description: 'Success.', content: successContent }]),
              ),
            }),
      // A file too large for a Lambda's answer (the download links) is a redirect to a link to it.
      ...(route.responseFormat === 'binary'
        ? {
            '302': {
              description: 'A file too large to answer in place: a redirect to a short-lived link to it.',
              headers: { Location: { description: 'The short-lived link.', schema: { type: 'string' } } },
            },
          }
        : {}),
      ...errors,
    },
  };
};

/** What a route lacks for its description; empty when complete. */
export const missingSchemas = (route: RouteDeclaration | undefined): string[] => {
  if (!route) return ['a declaration (the area entry does not dispatch this route key to an apiRoute handler)'];
  return route.response ? [] : ['a response schema'];
};

/**
 * The OpenAPI 3.1 description of the given routes. `components` names the shared answer schemas
 * (the resource objects): each is described once under components.schemas and referred to with
 * `$ref`, as are the list envelopes of them, the `{object, id}` and deleted answers, the one
 * error body, and the named request bodies (`requests`) the routes take.
 */
export const buildOpenApi = (
  routes: readonly DescribedRoute[],
  options: {
    serverUrl: string;
    components?: Readonly<Record<string, v.GenericSchema>>;
    /** Request body schemas by name (`SendEmailRequest`): a route taking one refers to it; the unused are left out. */
    requests?: Readonly<Record<string, v.GenericSchema>>;
  },
): Json => {
  const named = namedSchemas(options.components ?? {});
  const schemas: Record<string, Json> = { ...errorComponents(), ...named.components() };
  const requestNames = new Map(Object.entries(options.requests ?? {}).map(([name, schema]) => [schema, name]));
  const request = (schema: v.GenericSchema): Json => {
    const name = requestNames.get(schema);
    if (!name) return jsonSchemaOf(schema, 'input');
    if (schemas[name] && schemas[name] !== requestSchemas.get(name))
      throw new Error(`openapi: the request ${name} has the name of another schema`);
    if (!requestSchemas.has(name)) requestSchemas.set(name, (schemas[name] = jsonSchemaOf(schema, 'input')));
    return { $ref: `${COMPONENT}${name}` };
  };
  const requestSchemas = new Map<string, Json>();
  const described: Record<string, Json> = {};
  for (const r of routes)
    (described[r.path] ??= {})[r.method.toLowerCase()] = describeOperation(r, { answer: named.schemaOf, request });
  const paths = nameSharedShapes(described, schemas);
  return {
    openapi: '3.1.0',
    info: {
      title: 'mailstack API',
      version: API_VERSION,
      description:
        'Transactional and broadcast email, wire-compatible with the Resend API: point the official Resend SDKs at this server. Every error answers `{statusCode, name, message}`.',
    },
    servers: [{ url: options.serverUrl }],
    security: [{ apiKey: [] }],
    tags: [...new Set(routes.map((r) => r.area))].map((name) => ({ name })),
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API key of the team (`ms_...`), created with `npm run admin -- keys create`; full access, or sending access only.',
        },
      },
    },
  };
};
