import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { request, type IncomingHttpHeaders } from 'node:http';
import { ROUTES, routeKey, type RouteEntry } from '../../functions/routes.ts';
import { ERROR_STATUS } from '@mailstack/core/errors/catalog';
import { MAILBOX_AGENT_ERROR_STATUS } from '@mailstack/core/domain/mailboxes/agent-error';
import { local, newTeam, ownLoopbackAddress } from '../support/local.ts';

/**
 * A generated hostile caller: every route of the manifest gets hostile path ids, query strings
 * and bodies through the local host, and must answer with a catalog error (or a success),
 * never a 5xx. A route added to the manifest is covered without a new test.
 */

const RUNS_PER_ROUTE = 12;

const uuid = fc.uuid();
/** Path ids: real-looking and not: UUIDs, addresses, long strings, control characters, traversal, unicode. */
const pathId = fc
  .oneof(
    uuid,
    fc.emailAddress(),
    fc.string({ minLength: 1, maxLength: 40 }),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
    fc.integer({ min: 300, max: 4000 }).map((n) => 'a'.repeat(n)),
    // Long: percent-encoded, three of them pass HTTP API's 10,240-byte request head (API Gateway's 431).
    fc.integer({ min: 100, max: 450 }).map((n) => '€'.repeat(n)),
    fc.constantFrom(
      '..',
      '.',
      '%',
      '\u0000',
      '\n',
      ' ',
      'null',
      'undefined',
      '-1',
      '0',
      '1e309',
      '[]',
      '{}',
      'batch',
      'me',
      '<script>',
      "'; DROP TABLE",
    ),
  )
  .filter((s) => s.length > 0);

/** Query strings: the list parameters with good and bad values, and anything else. */
const queryString = fc
  .dictionary(
    fc.oneof(
      fc.constantFrom('limit', 'after', 'before', 'include', 'segment_id', 'on_conflict', 'since'),
      fc.string({ minLength: 1, maxLength: 10 }),
    ),
    fc.oneof(
      fc.constantFrom('0', '-1', '1', '100', '101', 'abc', '1e3', '', 'null', '20.5', '99999999999999999999'),
      uuid,
      fc.string({ maxLength: 300 }),
    ),
    { maxKeys: 4 },
  )
  .map((q) => new URLSearchParams(q).toString());

/** Bodies: any JSON value (wrong top-level types included), deep nesting, huge numbers, broken JSON. */
const body = fc.oneof(
  fc.json({ maxDepth: 4 }),
  fc.jsonValue({ maxDepth: 3 }).map((value) =>
    JSON.stringify({
      id: value,
      email: value,
      name: value,
      properties: { key: value },
      scheduled_at: value,
      limit: value,
    }),
  ),
  fc.constantFrom(
    '[]',
    '[{}]',
    '"s"',
    '5',
    'null',
    'true',
    '{',
    '{"a":',
    '\u0000',
    '{"email":"a@b.co","properties":{"x":1e308}}',
    '{"fallback_value":-1e-300}',
    '{"scheduled_at":"2025-02-30T10:00:00Z"}',
  ),
  fc.integer({ min: 1, max: 200 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  // Strings past the table's 400 KB item limit in the fields a route might keep on a row.
  fc
    .record({
      field: fc.constantFrom(
        'html',
        'text',
        'name',
        'subject',
        'from',
        'description',
        'reply_to',
        'preview_text',
        'alias',
        'email',
        'endpoint',
        'fallback_value',
        'key',
      ),
      size: fc.integer({ min: 400_000, max: 600_000 }),
    })
    .map(({ field, size }) => JSON.stringify({ [field]: 'x'.repeat(size) })),
  fc.constant(undefined),
);

/**
 * A path this long, with the request line and the few headers sent, may pass HTTP API's 10,240-byte
 * head; a shorter one must reach the function and answer from the catalog.
 */
const HEAD_MARGIN = 10_240 - 512;

const pathOf = (route: RouteEntry, ids: string[]): string => {
  let i = 0;
  return route.path.replace(/\{\w+\}/g, () => encodeURIComponent(ids[i++] ?? 'x'));
};

const parameterCount = (route: RouteEntry) => (route.path.match(/\{\w+\}/g) ?? []).length;

const hostileRequest = (route: RouteEntry) =>
  fc.record({
    ids: fc.array(pathId, { minLength: parameterCount(route), maxLength: parameterCount(route) }),
    query: queryString,
    body,
  });

/**
 * The loopback address these requests come from: an API key refused by the MCP routes counts as a
 * failed authentication of its address, and this many would turn other tests' expected 401s into 429.
 */
const OWN_ADDRESS = ownLoopbackAddress();

/** Sends one request; what a failure must show to be reproduced. */
const send = async (
  route: RouteEntry,
  key: string,
  input: { ids: string[]; query: string; body: string | undefined },
) => {
  const path = `${pathOf(route, input.ids)}${input.query ? `?${input.query}` : ''}`;
  // node:http, not fetch: a GET with a body is hostile input too.
  const res = await new Promise<{ status: number; headers: IncomingHttpHeaders; text: string }>((resolve, reject) => {
    const base = new URL(local().baseUrl);
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        path,
        method: route.method,
        localAddress: OWN_ADDRESS,
        headers: {
          authorization: `Bearer ${key}`,
          ...(input.body !== undefined
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(input.body) }
            : {}),
        },
      },
      (r) => {
        let text = '';
        r.setEncoding('utf8');
        r.on('data', (c) => (text += c));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, headers: r.headers, text }));
        r.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(input.body);
  });
  return {
    status: res.status,
    type: String(res.headers['content-type'] ?? ''),
    text: res.text,
    headBytes: Buffer.byteLength(path),
    what: `${route.method} ${path.slice(0, 200)} body ${String(input.body).slice(0, 200)}`,
  };
};

describe('hostile input on every route of the manifest', () => {
  it('covers every route', () => {
    expect(ROUTES.length).toBeGreaterThan(0);
    expect(new Set(ROUTES.map(routeKey)).size).toBe(ROUTES.length);
  });

  // Routes run in parallel groups; each has its own team, so no request window is shared.
  const groups = 6;
  for (let g = 0; g < groups; g++) {
    const routes = ROUTES.filter((_, i) => i % groups === g);
    it(`answers hostile path ids, queries and bodies with catalog errors, never a 5xx (group ${g + 1} of ${groups}: ${routes.length} routes)`, async () => {
      await Promise.all(
        routes.map(async (route) => {
          const t = await newTeam({ plan: 'scale' });
          await fc.assert(
            fc.asyncProperty(hostileRequest(route), async (input) => {
              const res = await send(route, t.secret, input);
              expect(res.status, res.what).toBeLessThan(500);
              // A request head past HTTP API's 10,240 bytes never reaches a function: API Gateway's own 431.
              if (res.status === 431) {
                expect(res.headBytes, res.what).toBeGreaterThan(HEAD_MARGIN);
                expect(JSON.parse(res.text), res.what).toEqual({ message: 'Request Header Fields Too Large' });
                return;
              }
              if (res.status >= 400 && res.type.startsWith('application/json')) {
                const name = JSON.parse(res.text).name;
                // A mailbox's MCP endpoint answers from the mailbox agent's catalog (spec §7, mailbox statuses);
                // `/mcp/.` is `/mcp/` once normalized, which is the hosted server's.
                const catalog: Record<string, number> =
                  route.path.startsWith('/mcp/') && Object.hasOwn(MAILBOX_AGENT_ERROR_STATUS, name)
                    ? MAILBOX_AGENT_ERROR_STATUS
                    : ERROR_STATUS;
                expect(Object.hasOwn(catalog, name), `${res.what}: ${name}`).toBe(true);
                expect(catalog[name], res.what).toBe(res.status);
              }
            }),
            { numRuns: RUNS_PER_ROUTE, endOnFailure: true },
          );
        }),
      );
    }, 120_000);
  }
});
