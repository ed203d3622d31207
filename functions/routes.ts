import type { ApiHandler } from '@mailstack/core/http/types';
import { UNSERVED_PATH_WORDS } from '@mailstack/core/http/path-ids';
import type { Needs } from './workers.ts';

/**
 * The route manifest: every HTTP route of the API and the handler that answers it, read by the
 * CDK API construct, the local server and each area's Lambda entry, so the cloud and local route
 * tables and the dispatch cannot drift. Each route belongs to a resource area; an area is one
 * Lambda whose entry (`functions/<area>/index.ts`) dispatches by route key through `areaRoutes`.
 * An alias (the audience names of segments, `/audiences/{id}/contacts`) names the same handler.
 */
export interface RouteEntry {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** API Gateway path template, `{name}` for a parameter. */
  readonly path: string;
  /** The resource area (one Lambda). */
  readonly area: Area;
  /** The handler module, relative to functions/ without extension (`contacts/create-contact`). */
  readonly handler: `${Area}/${string}`;
}

/** The resource areas, one Lambda each. */
export const AREAS = [
  'domains',
  'usage',
  'emails',
  'contacts',
  'segments',
  'contact-properties',
  'topics',
  'suppressions',
  'preferences',
  'openapi',
  'api-keys',
  'webhooks',
  'tracking',
  'templates',
  'broadcasts',
  'oauth',
  'mcp',
  'receiving',
  'logs',
  'inboxes',
  'automations',
] as const;
export type Area = (typeof AREAS)[number];

/**
 * Areas on the API's origin that speak another protocol than the REST API: the hosted MCP
 * server and each mailbox's MCP endpoint (JSON-RPC over Streamable HTTP). The OpenAPI document and the REST conventions' tests
 * leave their routes out; everything else (the manifest, the Lambda, the local host) is shared.
 */
export const NON_REST_AREAS = ['mcp'] as const satisfies readonly Area[];
export type RestArea = Exclude<Area, (typeof NON_REST_AREAS)[number]>;

/** What each area's Lambda needs beyond the table (see Needs); the stack grants nothing else. */
const AREA_NEEDS: Readonly<Record<Area, Needs>> = {
  domains: {
    table: ['get', 'query', 'batchGet', 'put', 'update', 'transactWrite'],
    sesIdentities: true,
    queues: ['events'],
  },
  usage: { table: ['get', 'batchGet', 'update'] },
  emails: {
    table: ['get', 'query', 'batchGet', 'put', 'update', 'batchWrite', 'idempotency'],
    queues: ['send', 'events'],
    scheduler: true,
    contentStore: ['put', 'get'],
    linkSecret: true,
  },
  contacts: {
    table: ['get', 'query', 'batchGet', 'put', 'update', 'delete', 'transactWrite'],
    queues: ['events', 'erase'],
    linkSecret: true,
  },
  segments: { table: ['get', 'query', 'put', 'update', 'delete', 'transactWrite'] },
  'contact-properties': { table: ['get', 'query', 'put', 'update', 'transactWrite'] },
  topics: { table: ['get', 'query', 'put', 'update', 'transactWrite'], queues: ['events'] },
  suppressions: { table: ['get', 'query', 'update', 'transactWrite'], queues: ['events'] },
  preferences: { table: ['get', 'query', 'batchGet', 'update', 'transactWrite'], queues: ['events'], linkSecret: true },
  // Its one route is public and reads nothing: the name of the table only (the configuration needs one).
  openapi: { table: [] },
  'api-keys': { table: ['get', 'update'] },
  webhooks: {
    table: ['get', 'query', 'put', 'update', 'delete', 'transactWrite'],
    queues: ['webhooks'],
    scheduler: ['schedule'],
  },
  tracking: { table: ['get', 'query', 'put', 'update'], queues: ['events'], linkSecret: true },
  templates: { table: ['get', 'query', 'update', 'transactWrite'] },
  broadcasts: {
    table: ['get', 'query', 'batchGet', 'put', 'update', 'delete', 'batchWrite', 'transactWrite'],
    queues: ['fanout', 'events'],
    scheduler: true,
    contentStore: ['put'],
  },
  oauth: { table: ['get', 'query', 'put', 'update'] },
  // The MCP tools run the REST routes of every area above but preferences, openapi, api-keys and tracking, and the mailbox agent's use cases.
  mcp: {
    table: ['get', 'query', 'batchGet', 'put', 'update', 'delete', 'batchWrite', 'transactWrite', 'idempotency'],
    sesIdentities: true,
    queues: ['send', 'events', 'erase', 'fanout', 'webhooks', 'automations'],
    scheduler: true,
    linkSecret: true,
    contentStore: true,
    mailboxStore: true,
  },
  receiving: {
    table: ['get', 'query', 'update'],
    linkSecret: true,
    mailboxStore: ['get'],
    // put: a large attachment is copied under emails/downloads/ for its presigned link.
    contentStore: ['put', 'get'],
  },
  logs: { table: ['get', 'query', 'update'] },
  // SES identities: a draft held for approval notifies the owners (the service's own mail).
  inboxes: {
    table: ['get', 'query', 'batchGet', 'put', 'update', 'batchWrite', 'transactWrite', 'idempotency'],
    queues: ['send', 'events'],
    scheduler: ['schedule'],
    mailboxStore: true,
    contentStore: true,
    sesIdentities: true,
  },
  automations: { table: ['get', 'query', 'put', 'update', 'transactWrite', 'idempotency'], queues: ['automations'] },
};

/**
 * What an area's Lambda needs: its AREA_NEEDS, and for a REST area the request-log queue, to
 * which it hands each answered request of a team (GET /logs).
 */
export const areaNeeds = (area: Area): Needs => {
  const needs = AREA_NEEDS[area];
  // The OpenAPI document is public: no caller, so no request log.
  if ((NON_REST_AREAS as readonly Area[]).includes(area) || area === 'openapi') return needs;
  return { ...needs, queues: [...(needs.queues ?? []), 'request-logs'] };
};

/** The Lambda behind the API's `$default` route: unknown routes through the error catalog. */
export const UNMATCHED_ENTRY = 'unmatched/index';
/** The environment variable giving the unmatched Lambda each area's function name (a JSON object), for the `//` paths it passes on. */
export const AREA_FUNCTIONS_ENV = 'AREA_FUNCTIONS';

const r = (method: RouteEntry['method'], path: string, handler: RouteEntry['handler']): RouteEntry => ({
  method,
  path,
  handler,
  area: handler.split('/')[0] as Area,
});

/** Every route. */
export const ROUTES: readonly RouteEntry[] = [
  r('POST', '/domains', 'domains/create-domain'),
  r('GET', '/domains', 'domains/list-domains'),
  r('GET', '/domains/{id}', 'domains/get-domain'),
  r('PATCH', '/domains/{id}', 'domains/update-domain'),
  r('DELETE', '/domains/{id}', 'domains/delete-domain'),
  r('POST', '/domains/{id}/verify', 'domains/verify-domain'),
  r('POST', '/domains/claim', 'domains/create-domain-claim'),
  r('GET', '/domains/{id}/claim', 'domains/get-domain-claim'),
  r('POST', '/domains/{id}/claim/verify', 'domains/verify-domain-claim'),
  r('GET', '/usage', 'usage/get-usage'),
  r('POST', '/emails', 'emails/send-email'),
  r('POST', '/emails/batch', 'emails/send-batch'),
  r('GET', '/emails', 'emails/list-emails'),
  r('GET', '/emails/metrics', 'emails/get-email-metrics'),
  r('GET', '/emails/{id}', 'emails/get-email'),
  r('PATCH', '/emails/{id}', 'emails/update-email'),
  r('POST', '/emails/{id}/cancel', 'emails/cancel-email'),
  r('POST', '/emails/{id}/share', 'emails/share-email'),
  r('DELETE', '/emails/{id}', 'emails/delete-email'),
  r('GET', '/emails/{id}/attachments', 'emails/list-email-attachments'),
  r('GET', '/emails/{id}/attachments/{attachment_id}', 'emails/get-email-attachment'),
  r('POST', '/contacts', 'contacts/create-contact'),
  r('GET', '/contacts', 'contacts/list-contacts'),
  r('GET', '/contacts/{id}', 'contacts/get-contact'),
  r('PATCH', '/contacts/{id}', 'contacts/update-contact'),
  r('DELETE', '/contacts/{id}', 'contacts/delete-contact'),
  r('POST', '/contacts/batch', 'contacts/batch-create-contacts'),
  r('POST', '/contacts/batch/get', 'contacts/batch-get-contacts'),
  r('POST', '/contacts/batch/remove', 'contacts/batch-remove-contacts'),
  r('GET', '/contacts/{id}/segments', 'contacts/list-contact-segments'),
  r('POST', '/contacts/{id}/segments/{segment_id}', 'contacts/add-contact-segment'),
  r('DELETE', '/contacts/{id}/segments/{segment_id}', 'contacts/remove-contact-segment'),
  r('GET', '/contacts/{id}/topics', 'contacts/list-contact-topics'),
  r('PATCH', '/contacts/{id}/topics', 'contacts/update-contact-topics'),
  r('POST', '/contacts/{id}/preferences-link', 'contacts/create-preferences-link'),
  r('POST', '/audiences/{id}/contacts', 'contacts/create-audience-contact'),
  r('GET', '/audiences/{id}/contacts', 'contacts/list-segment-contacts'),
  r('GET', '/segments/{id}/contacts', 'contacts/list-segment-contacts'),
  r('GET', '/audiences/{id}/contacts/{contact_id}', 'contacts/get-audience-contact'),
  r('PATCH', '/audiences/{id}/contacts/{contact_id}', 'contacts/update-audience-contact'),
  r('DELETE', '/audiences/{id}/contacts/{contact_id}', 'contacts/delete-audience-contact'),
  r('POST', '/segments', 'segments/create-segment'),
  r('GET', '/segments', 'segments/list-segments'),
  r('GET', '/segments/{id}', 'segments/get-segment'),
  r('DELETE', '/segments/{id}', 'segments/delete-segment'),
  r('POST', '/audiences', 'segments/create-segment'),
  r('GET', '/audiences', 'segments/list-segments'),
  r('GET', '/audiences/{id}', 'segments/get-segment'),
  r('DELETE', '/audiences/{id}', 'segments/delete-segment'),
  r('PATCH', '/segments/{id}', 'segments/update-segment'),
  r('POST', '/contact-properties', 'contact-properties/create-contact-property'),
  r('GET', '/contact-properties', 'contact-properties/list-contact-properties'),
  r('GET', '/contact-properties/{id}', 'contact-properties/get-contact-property'),
  r('PATCH', '/contact-properties/{id}', 'contact-properties/update-contact-property'),
  r('DELETE', '/contact-properties/{id}', 'contact-properties/delete-contact-property'),
  r('POST', '/topics', 'topics/create-topic'),
  r('GET', '/topics', 'topics/list-topics'),
  r('GET', '/topics/{id}', 'topics/get-topic'),
  r('PATCH', '/topics/{id}', 'topics/update-topic'),
  r('DELETE', '/topics/{id}', 'topics/delete-topic'),
  r('POST', '/suppressions', 'suppressions/add-suppression'),
  r('GET', '/suppressions', 'suppressions/list-suppressions'),
  r('GET', '/suppressions/{id}', 'suppressions/get-suppression'),
  r('DELETE', '/suppressions/{id}', 'suppressions/remove-suppression'),
  r('POST', '/suppressions/batch/add', 'suppressions/batch-add-suppressions'),
  r('POST', '/suppressions/batch/remove', 'suppressions/batch-remove-suppressions'),
  r('POST', '/templates', 'templates/create-template'),
  r('GET', '/templates', 'templates/list-templates'),
  r('GET', '/templates/{id}', 'templates/get-template'),
  r('PATCH', '/templates/{id}', 'templates/update-template'),
  r('DELETE', '/templates/{id}', 'templates/delete-template'),
  r('POST', '/templates/{id}/publish', 'templates/publish-template'),
  r('POST', '/templates/{id}/duplicate', 'templates/duplicate-template'),
  r('POST', '/broadcasts', 'broadcasts/create-broadcast'),
  r('GET', '/broadcasts', 'broadcasts/list-broadcasts'),
  r('GET', '/broadcasts/{id}', 'broadcasts/get-broadcast'),
  r('PATCH', '/broadcasts/{id}', 'broadcasts/update-broadcast'),
  r('DELETE', '/broadcasts/{id}', 'broadcasts/delete-broadcast'),
  r('POST', '/broadcasts/{id}/send', 'broadcasts/send-broadcast'),
  r('POST', '/broadcasts/{id}/cancel', 'broadcasts/cancel-broadcast'),
  r('POST', '/broadcasts/{id}/duplicate', 'broadcasts/duplicate-broadcast'),
  r('GET', '/broadcasts/{id}/recipients', 'broadcasts/list-broadcast-recipients'),
  r('GET', '/broadcasts/{id}/clicked-links', 'broadcasts/list-broadcast-clicked-links'),
  r('GET', '/preferences/{token}', 'preferences/show-preferences'),
  r('POST', '/preferences/{token}', 'preferences/save-preferences'),
  r('GET', '/unsubscribe/{token}', 'preferences/show-unsubscribe'),
  r('POST', '/unsubscribe/{token}', 'preferences/one-click-unsubscribe'),
  r('GET', '/openapi.json', 'openapi/get-openapi'),
  r('POST', '/api-keys', 'api-keys/create-api-key'),
  r('POST', '/webhooks', 'webhooks/create-webhook'),
  r('GET', '/webhooks', 'webhooks/list-webhooks'),
  r('GET', '/webhooks/{id}', 'webhooks/get-webhook'),
  r('PATCH', '/webhooks/{id}', 'webhooks/update-webhook'),
  r('DELETE', '/webhooks/{id}', 'webhooks/delete-webhook'),
  r('POST', '/webhooks/{id}/rotate', 'webhooks/rotate-webhook-secret'),
  r('POST', '/webhooks/{id}/signing-secret/rotate', 'webhooks/rotate-webhook-secret'),
  r('GET', '/webhooks/{id}/events', 'webhooks/list-webhook-events'),
  r('GET', '/webhooks/{id}/events/{event_id}', 'webhooks/get-webhook-event'),
  r('GET', '/webhooks/{id}/events/{event_id}/attempts', 'webhooks/list-webhook-event-attempts'),
  r('POST', '/webhooks/{id}/events/{event_id}/replay', 'webhooks/replay-webhook-event'),
  r('GET', '/t/o/{token}', 'tracking/open-pixel'),
  r('GET', '/t/c/{token}', 'tracking/click-link'),
  r('GET', '/.well-known/oauth-protected-resource', 'oauth/get-protected-resource-metadata'),
  r('GET', '/.well-known/oauth-protected-resource/mcp', 'oauth/get-protected-resource-metadata'),
  r('GET', '/.well-known/oauth-authorization-server', 'oauth/get-authorization-server-metadata'),
  r('POST', '/oauth/register', 'oauth/register-client'),
  r('GET', '/oauth/authorize', 'oauth/authorize'),
  r('POST', '/oauth/token', 'oauth/token'),
  r('POST', '/oauth/revoke', 'oauth/revoke-token'),
  r('GET', '/oauth/grants', 'oauth/list-grants'),
  r('DELETE', '/oauth/grants/{id}', 'oauth/revoke-grant'),
  r('POST', '/mcp', 'mcp/mcp-endpoint'),
  r('GET', '/mcp', 'mcp/mcp-endpoint'),
  r('DELETE', '/mcp', 'mcp/mcp-endpoint'),
  r('POST', '/mcp/{mailbox}', 'mcp/mailbox-endpoint'),
  r('GET', '/mcp/{mailbox}', 'mcp/mailbox-endpoint'),
  r('DELETE', '/mcp/{mailbox}', 'mcp/mailbox-endpoint'),
  r('GET', '/emails/receiving', 'receiving/list-received-emails'),
  r('GET', '/emails/receiving/{id}', 'receiving/get-received-email'),
  r('GET', '/emails/receiving/{id}/attachments', 'receiving/list-received-attachments'),
  r('GET', '/emails/receiving/{id}/attachments/{attachment_id}', 'receiving/get-received-attachment'),
  r('GET', '/downloads/{token}', 'receiving/download'),
  r('GET', '/logs', 'logs/list-logs'),
  r('GET', '/logs/{id}', 'logs/get-log'),
  r('POST', '/inboxes', 'inboxes/create-inbox'),
  r('GET', '/inboxes', 'inboxes/list-inboxes'),
  r('GET', '/inboxes/{id}', 'inboxes/get-inbox'),
  r('PATCH', '/inboxes/{id}', 'inboxes/update-inbox'),
  r('DELETE', '/inboxes/{id}', 'inboxes/delete-inbox'),
  r('GET', '/inboxes/{id}/agent', 'inboxes/get-inbox-agent'),
  r('PATCH', '/inboxes/{id}/agent', 'inboxes/update-inbox-agent'),
  r('GET', '/inboxes/{id}/threads', 'inboxes/list-inbox-threads'),
  r('GET', '/inboxes/{id}/threads/search', 'inboxes/search-inbox-threads'),
  r('GET', '/inboxes/{id}/threads/{thread_id}', 'inboxes/get-inbox-thread'),
  r('PATCH', '/inboxes/{id}/threads/{thread_id}', 'inboxes/update-inbox-thread'),
  r('DELETE', '/inboxes/{id}/threads/{thread_id}', 'inboxes/delete-inbox-thread'),
  r('GET', '/inboxes/{id}/threads/{thread_id}/emails', 'inboxes/list-thread-emails'),
  r('GET', '/inboxes/{id}/threads/{thread_id}/emails/{email_id}', 'inboxes/get-thread-email'),
  r('POST', '/inboxes/{id}/threads/{thread_id}/emails/{email_id}/reply', 'inboxes/reply-thread-email'),
  r('POST', '/inboxes/{id}/threads/{thread_id}/emails/{email_id}/forward', 'inboxes/forward-thread-email'),
  r('POST', '/inboxes/{id}/threads/{thread_id}/labels', 'inboxes/add-thread-labels'),
  r('PUT', '/inboxes/{id}/threads/{thread_id}/labels', 'inboxes/set-thread-labels'),
  r('DELETE', '/inboxes/{id}/threads/{thread_id}/labels/{label_id}', 'inboxes/remove-thread-labels'),
  r('GET', '/inboxes/{id}/labels', 'inboxes/list-inbox-labels'),
  r('POST', '/inboxes/{id}/labels', 'inboxes/create-inbox-label'),
  r('PATCH', '/inboxes/{id}/labels/{label_id}', 'inboxes/update-inbox-label'),
  r('DELETE', '/inboxes/{id}/labels/{label_id}', 'inboxes/delete-inbox-label'),
  r('GET', '/inboxes/{id}/drafts', 'inboxes/list-inbox-drafts'),
  r('POST', '/inboxes/{id}/drafts', 'inboxes/create-inbox-draft'),
  r('GET', '/inboxes/{id}/drafts/{draft_id}', 'inboxes/get-inbox-draft'),
  r('PATCH', '/inboxes/{id}/drafts/{draft_id}', 'inboxes/update-inbox-draft'),
  r('DELETE', '/inboxes/{id}/drafts/{draft_id}', 'inboxes/delete-inbox-draft'),
  r('POST', '/inboxes/{id}/drafts/{draft_id}/send', 'inboxes/send-inbox-draft'),
  r('POST', '/events', 'automations/create-event'),
  r('GET', '/events', 'automations/list-events'),
  r('POST', '/events/send', 'automations/send-event'),
  r('GET', '/events/{id}', 'automations/get-event'),
  r('PATCH', '/events/{id}', 'automations/update-event'),
  r('DELETE', '/events/{id}', 'automations/delete-event'),
  r('POST', '/automations', 'automations/create-automation'),
  r('GET', '/automations', 'automations/list-automations'),
  r('GET', '/automations/{id}', 'automations/get-automation'),
  r('PATCH', '/automations/{id}', 'automations/update-automation'),
  r('DELETE', '/automations/{id}', 'automations/delete-automation'),
  r('POST', '/automations/{id}/duplicate', 'automations/duplicate-automation'),
  r('POST', '/automations/{id}/stop', 'automations/stop-automation'),
  r('GET', '/automations/{id}/runs', 'automations/list-automation-runs'),
  r('GET', '/automations/{id}/runs/{run_id}', 'automations/get-automation-run'),
];

/** True for a route of the REST API (not of a NON_REST_AREAS area). */
export const isRestRoute = (route: RouteEntry): route is RouteEntry & { area: RestArea } =>
  !(NON_REST_AREAS as readonly Area[]).includes(route.area);

/** The routes of the REST API: what the OpenAPI document describes. */
export const REST_ROUTES: readonly (RouteEntry & { area: RestArea })[] = ROUTES.filter(isRestRoute);

/** The API Gateway route key of a route ("POST /domains/{id}"). */
export const routeKey = (route: RouteEntry): string => `${route.method} ${route.path}`;

/**
 * The dispatch table of one area's Lambda, from the manifest: route key -> the handler the route
 * names. `handlers` maps each handler module's name (its file name) to its export; a manifest
 * route whose handler is missing fails at cold start, naming it.
 */
export const areaRoutes = <H extends ApiHandler>(
  area: Area,
  handlers: Readonly<Record<string, H>>,
): Record<string, H> =>
  Object.fromEntries(
    ROUTES.filter((route) => route.area === area).map((route) => {
      const name = route.handler.slice(area.length + 1);
      const handler = handlers[name];
      if (!handler)
        throw new Error(
          `functions/${area}/index.ts does not provide ${name}, which the route manifest names for ${routeKey(route)}`,
        );
      return [routeKey(route), handler];
    }),
  );

/** A route pattern: the manifest path as a regular expression with its parameter names. */
interface CompiledRoute {
  readonly route: RouteEntry;
  readonly pattern: RegExp;
  readonly names: readonly string[];
}

const compile = (route: RouteEntry): CompiledRoute => {
  const names: string[] = [];
  const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { route, pattern: new RegExp(`^${source}/?$`), names };
};

/**
 * Matches a request against the manifest as API Gateway does (literal paths win over
 * parameters: /emails/batch before /emails/{id}): the route and its raw path parameters, or the
 * methods the path allows when only the method is wrong, or nothing.
 */
export const routeMatcher = (routes: readonly RouteEntry[] = ROUTES) => {
  const compiled = routes.map(compile).sort((a, b) => a.names.length - b.names.length);
  return (
    method: string,
    path: string,
  ): { route: RouteEntry; params: Record<string, string> } | { allowed: string[] } | undefined => {
    const matching = compiled.filter((c) => c.pattern.test(path));
    // A parameter filled by a word of an endpoint we do not serve (/contacts/imports) names no
    // resource: it does not make the path one the API serves (no 405 for it).
    const candidates = matching.filter((c) =>
      c.pattern
        .exec(path)
        ?.slice(1)
        .every((value) => !UNSERVED_PATH_WORDS.has(value)),
    );
    // API Gateway routes on method and pattern alike (GET /domains/claim takes GET /domains/{id},
    // whose handler answers that the endpoint does not exist): the same route is taken here.
    const hit = candidates.find((c) => c.route.method === method) ?? matching.find((c) => c.route.method === method);
    if (!hit) return candidates.length > 0 ? { allowed: candidates.map((c) => c.route.method) } : undefined;
    const values = hit.pattern.exec(path)?.slice(1) ?? [];
    return { route: hit.route, params: Object.fromEntries(hit.names.map((name, i) => [name, values[i] ?? ''])) };
  };
};
