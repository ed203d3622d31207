import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { ROUTES, REST_ROUTES, NON_REST_AREAS, routeKey, type RouteEntry } from '../../../functions/routes.ts';
import { AREA_ENTRIES } from '../../../functions/openapi/areas.ts';
import { MAILBOX_TOOLS, ROUTE_TOOLS, TOOLS } from '../../../functions/mcp/tools/index.ts';
import { TOOL_SCOPES, routeTool } from '../../../functions/mcp/tool.ts';
import { handler as updateContact } from '../../../functions/contacts/update-contact.ts';

/**
 * REST routes that have no MCP tool, each with its reason. A handler module is a capability: a
 * route whose handler a tool runs is covered, whatever its path (the audience aliases of the
 * segment routes run the segment handlers).
 */
const EXCLUDED: Readonly<Record<string, string>> = {
  'api-keys/create-api-key':
    'spec §5 rule 2: keys are created only by a person in the dashboard; the route exists only to refuse',
  'oauth/get-protected-resource-metadata':
    'OAuth discovery (RFC 9728) an MCP client reads before it has a token, not a team capability',
  'oauth/get-authorization-server-metadata':
    'OAuth discovery (RFC 8414) an MCP client reads before it has a token, not a team capability',
  'oauth/register-client': 'RFC 7591 registration of the MCP client itself, before any token',
  'oauth/authorize': 'the browser step of the OAuth flow: a person signs in and consents',
  'oauth/token': 'the OAuth token endpoint the MCP client calls to get and refresh its own tokens',
  'oauth/revoke-token': 'RFC 7009 revocation by the MCP client of its own tokens',
  'oauth/list-grants': 'which agents hold access is for people (dashboard, API key), not for an agent under a grant',
  'domains/create-domain-claim':
    "moving a domain between teams takes a person's DNS change (a TXT record) and is not yet a hosted tool",
  'domains/get-domain-claim': 'domain claims are not yet hosted tools (a person publishes the TXT record)',
  'domains/verify-domain-claim': 'domain claims are not yet hosted tools (a person publishes the TXT record)',
  'receiving/download': "a signed, key-less download link for a person's browser, not a capability",
  'oauth/revoke-grant': "revoking agents' access is for people (dashboard, API key), not for an agent under a grant",
  'openapi/get-openapi': "the API's own description, for tooling; the tools list is the MCP server's description",
  'preferences/show-preferences': "a recipient's hosted page behind a signed link token, not a team capability",
  'preferences/save-preferences': "a recipient's hosted page behind a signed link token, not a team capability",
  'preferences/show-unsubscribe': "a recipient's hosted page behind a signed link token, not a team capability",
  'preferences/one-click-unsubscribe': 'RFC 8058 one-click unsubscribe for mail clients, behind a signed link token',
  'tracking/open-pixel': 'the open-tracking pixel mail clients load, behind a signed token',
  'tracking/click-link': 'the click-tracking redirect mail clients follow, behind a signed token',
  'contacts/create-audience-contact':
    'legacy audience path: create_contact with `segments`, or add_contact_to_segment, does the same',
  'contacts/get-audience-contact': 'legacy audience path: get_contact does the same',
  'contacts/update-audience-contact': 'legacy audience path: update_contact does the same',
  'contacts/delete-audience-contact':
    'legacy audience path: remove_contact_from_segment or delete_contact does the same',
  'inboxes/create-inbox': 'an inbox is a mailbox: create_mailbox does the same (mailboxes:write)',
  'inboxes/list-inboxes': 'an inbox is a mailbox: list_mailboxes does the same (mailboxes:read)',
  'inboxes/get-inbox': 'an inbox is a mailbox: list_mailboxes gives each one (mailboxes:read)',
  'inboxes/update-inbox': 'an inbox is a mailbox: rename_mailbox does the same (mailboxes:write)',
  'inboxes/delete-inbox': 'an inbox is a mailbox: delete_mailbox does the same (mailboxes:write)',
  'inboxes/update-inbox-thread': 'thread state is not yet a hosted tool (mail:* scopes)',
  'inboxes/delete-inbox-thread': 'deleting mail is not yet a hosted tool (mail:* scopes)',
  'inboxes/list-inbox-drafts':
    'mailbox drafts for agents: save_mailbox_draft and send_mailbox_draft (mail:draft, mail:send)',
  'inboxes/create-inbox-draft': 'save_mailbox_draft does the same (mail:draft)',
  'inboxes/get-inbox-draft': 'mailbox drafts for agents: save_mailbox_draft answers the draft (mail:draft)',
  'inboxes/update-inbox-draft': 'save_mailbox_draft does the same with an id (mail:draft)',
  'inboxes/delete-inbox-draft': 'deleting drafts is not yet a hosted tool (mail:draft)',
  'inboxes/send-inbox-draft': 'send_mailbox_draft does the same (mail:send)',
  'inboxes/reply-thread-email': 'save_mailbox_draft with sourceItemId, then send_mailbox_draft, does the same',
  'inboxes/forward-thread-email': 'save_mailbox_draft with sourceItemId and its attachments, then send_mailbox_draft',
  'inboxes/create-inbox-label': 'labels are not yet hosted tools (mail:* scopes)',
  'inboxes/update-inbox-label': 'labels are not yet hosted tools (mail:* scopes)',
  'inboxes/delete-inbox-label': 'labels are not yet hosted tools (mail:* scopes)',
  'inboxes/add-thread-labels': 'labels are not yet hosted tools (mail:* scopes)',
  'inboxes/set-thread-labels': 'labels are not yet hosted tools (mail:* scopes)',
  'inboxes/remove-thread-labels': 'labels are not yet hosted tools (mail:* scopes)',
  'inboxes/get-inbox-agent': "an agent receives its inbox's settings as the mailbox MCP endpoint's server instructions",
  'inboxes/update-inbox-agent': "what an inbox's agents are told is the owner's to set, not an agent's",
};

const byHandler = new Map<string, RouteEntry[]>();
for (const route of REST_ROUTES) byHandler.set(route.handler, [...(byHandler.get(route.handler) ?? []), route]);
const handlerOfKey = (key: string) => ROUTES.find((r) => routeKey(r) === key)?.handler;

describe('MCP tools cover the REST API', () => {
  it('gives every REST capability a tool, or names why not', () => {
    const tooled = new Set<string>(ROUTE_TOOLS.map((t) => handlerOfKey(t.route) ?? ''));
    const uncovered = [...byHandler.keys()].filter((h) => !tooled.has(h) && !(h in EXCLUDED));
    expect(uncovered).toEqual([]);
    // An exclusion names a real handler that no tool runs (no stale entries).
    for (const h of Object.keys(EXCLUDED)) {
      expect(byHandler.has(h), h).toBe(true);
      expect(tooled.has(h), `${h} is excluded yet has a tool`).toBe(false);
    }
  });

  it('leaves no REST area without tools but those whose every route is excluded', () => {
    const areas = new Set(REST_ROUTES.map((r) => r.area));
    const withTools = new Set(ROUTE_TOOLS.map((t) => ROUTES.find((r) => routeKey(r) === t.route)?.area));
    const allExcluded = [...areas].filter((a) =>
      REST_ROUTES.filter((r) => r.area === a).every((r) => r.handler in EXCLUDED),
    );
    expect([...areas].filter((a) => !withTools.has(a)).sort()).toEqual(allExcluded.sort());
    expect(allExcluded.sort()).toEqual(['api-keys', 'oauth', 'openapi', 'preferences', 'tracking']);
    for (const area of [
      'emails',
      'contacts',
      'contact-properties',
      'segments',
      'topics',
      'suppressions',
      'templates',
      'broadcasts',
      'domains',
      'webhooks',
      'usage',
      'receiving',
      'logs',
      'automations',
    ]) {
      expect(withTools.has(area as never), area).toBe(true);
    }
    expect(NON_REST_AREAS).toEqual(['mcp']);
  });

  it('runs each tool through the very handler its route dispatches to, one tool per route', () => {
    for (const tool of ROUTE_TOOLS) {
      const route = REST_ROUTES.find((r) => routeKey(r) === tool.route);
      expect(route, `${tool.name}: ${tool.route} is not a REST route of the manifest`).toBeDefined();
      expect(AREA_ENTRIES[route!.area].routes[tool.route], tool.name).toBe(tool.handler);
    }
    expect(new Set(TOOLS.map((t) => t.name)).size).toBe(TOOLS.length);
    expect(new Set(ROUTE_TOOLS.map((t) => handlerOfKey(t.route))).size).toBe(ROUTE_TOOLS.length);
    expect(TOOLS).toEqual([...ROUTE_TOOLS, ...MAILBOX_TOOLS]);
  });

  it('gives every tool one scope of the spec, matching what the route does', () => {
    const expected = (tool: (typeof ROUTE_TOOLS)[number]): string => {
      const area = ROUTES.find((r) => routeKey(r) === tool.route)!.area;
      const read = tool.route.startsWith('GET ') || tool.name === 'batch_get_contacts';
      switch (area) {
        case 'emails':
          return read ? 'emails:read' : 'emails:send';
        case 'usage':
        case 'logs':
          return 'emails:read';
        case 'domains':
          return read ? 'domains:read' : 'domains:write';
        case 'templates':
          return read ? 'templates:read' : 'templates:write';
        case 'broadcasts':
          return read ? 'broadcasts:read' : 'broadcasts:write';
        case 'webhooks':
          return 'webhooks:write';
        case 'automations':
          return read ? 'automations:read' : 'automations:write';
        // Received mail, read only in the mailboxes chosen at consent.
        case 'receiving':
        case 'inboxes':
          return 'mail:read';
        default:
          return read ? 'audience:read' : 'audience:write';
      }
    };
    const wrong = ROUTE_TOOLS.filter(
      (t) => !(TOOL_SCOPES as readonly string[]).includes(t.scope) || t.scope !== expected(t),
    ).map((t) => `${t.name}: ${t.scope}`);
    expect(wrong).toEqual([]);
    expect(ROUTE_TOOLS.length).toBeGreaterThan(70);
    // A mailbox's drafts: saving needs mail:draft; sending mail:send, or mail:draft to ask the owner's approval.
    expect(MAILBOX_TOOLS.map((t) => [t.name, t.scope, t.orScope ?? null])).toEqual([
      ['list_mailboxes', 'mailboxes:read', null],
      ['create_mailbox', 'mailboxes:write', null],
      ['rename_mailbox', 'mailboxes:write', null],
      ['delete_mailbox', 'mailboxes:write', null],
      ['save_mailbox_draft', 'mail:draft', null],
      ['send_mailbox_draft', 'mail:send', 'mail:draft'],
    ]);
  });

  it("describes every tool for a model, with an input schema built from the route's own schemas", () => {
    const ajv = (addFormatsModule as unknown as (a: Ajv2020) => Ajv2020)(new Ajv2020({ strict: false }));
    for (const tool of TOOLS) {
      expect(tool.name, tool.name).toMatch(/^[a-z][a-z_]{2,62}$/);
      expect(tool.description.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
    }
    // Every path parameter of the route is a required argument; every mailbox tool names its mailbox.
    for (const tool of ROUTE_TOOLS) {
      for (const [, name] of tool.route.matchAll(/\{(\w+)\}/g))
        expect(tool.inputSchema.required, `${tool.name} ${name}`).toContain(name);
    }
    for (const tool of MAILBOX_TOOLS.filter((t) => t.scope.startsWith('mail:')))
      expect(tool.inputSchema.required, tool.name).toContain('mailbox_id');
    expect(TOOLS.find((t) => t.name === 'save_mailbox_draft')!.inputSchema.required).toEqual(
      expect.arrayContaining(['mailbox_id', 'expectedRevision', 'to', 'retainedAttachments', 'uploads']),
    );
    const send = TOOLS.find((t) => t.name === 'send_email')!;
    expect(send.inputSchema.required).toContain('to');
    expect(Object.keys(send.inputSchema.properties)).toEqual(
      expect.arrayContaining(['from', 'subject', 'html', 'text', 'attachments', 'scheduled_at', 'tags', 'template']),
    );
    const list = TOOLS.find((t) => t.name === 'list_emails')!;
    // Every argument's default is valid for its own type (a list's limit: the integer 20, not the query string "20").
    expect(list.inputSchema.properties.limit).toMatchObject({ type: 'integer', default: 20 });
    for (const tool of TOOLS)
      for (const [name, arg] of Object.entries<Record<string, unknown>>(tool.inputSchema.properties ?? {}))
        if (arg.type === 'integer' && 'default' in arg)
          expect(Number.isInteger(arg.default), `${tool.name}.${name}`).toBe(true);
    const batch = TOOLS.find((t) => t.name === 'send_batch_emails')!;
    expect(batch.inputSchema.properties.emails).toMatchObject({ type: 'array', items: { type: 'object' } });
    expect(batch.inputSchema.properties.batch_validation.enum).toEqual(['strict', 'permissive']);
  });

  it('refuses at load a tool whose arguments would collide', () => {
    expect(() =>
      routeTool({
        name: 'x_tool',
        scope: 'audience:write',
        route: 'PATCH /contacts/{id}',
        handler: updateContact,
        description: 'a tool whose body argument is on a route with a body',
        bodyArgument: { name: 'id', description: 'collides with the path id' },
      }),
    ).toThrow(/`id` would stand for two parts/);
  });
});
