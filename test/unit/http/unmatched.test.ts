import { describe, expect, it } from 'vitest';
import type { ApiEvent, ApiResult } from '@mailstack/core/http/types';
import { normalisePath } from '@mailstack/core/http/unmatched';
import { ROUTES, routeKey, type Area } from '../../../functions/routes.ts';
import { createUnmatchedHandler } from '../../../functions/unmatched/index.ts';

/** The `$default` event API Gateway delivers for a path no route of its own takes. */
const defaultEvent = (method: string, path: string): ApiEvent => ({
  version: '2.0',
  routeKey: '$default',
  rawPath: path,
  rawQueryString: 'limit=5',
  queryStringParameters: { limit: '5' },
  headers: { authorization: 'Bearer re_x', 'content-type': 'application/json' },
  body: '{"a":1}',
  isBase64Encoded: false,
  requestContext: {
    accountId: '1',
    apiId: 'api',
    domainName: 'api.example.com',
    domainPrefix: 'api',
    requestId: 'r1',
    routeKey: '$default',
    stage: '$default',
    time: '',
    timeEpoch: 0,
    http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'resend-go/3' },
  },
});

const ID = '01a00000-0000-7000-8000-0000000000aa';
const pathOf = (template: string) => template.replace(/\{(\w+)\}/g, () => ID);

const recording = () => {
  const calls: { area: Area; event: ApiEvent }[] = [];
  const handler = createUnmatchedHandler(async (area, event) => {
    calls.push({ area, event });
    return { statusCode: 200, body: '{"ok":true}' } satisfies ApiResult;
  });
  return { calls, handler };
};

describe("the API's $default function", () => {
  it('reads runs of slashes as one', () => {
    expect(normalisePath('//emails')).toBe('/emails');
    expect(normalisePath('/contacts//a@b.co///segments/x')).toBe('/contacts/a@b.co/segments/x');
    expect(normalisePath('/emails/')).toBe('/emails/');
  });

  it('takes the path parameters of a re-dispatched path as delivered: rawPath arrives percent-decoded, never decoded twice', async () => {
    // Prepare: `//emails/%2541%252F` as sent; HTTP API delivers rawPath decoded once.
    const { calls, handler } = recording();

    // Act
    await handler(defaultEvent('GET', '//emails/%41%2F'));

    // Assess
    expect(calls).toHaveLength(1);
    expect(calls[0]!.event.pathParameters).toEqual({ id: '%41%2F' });
    expect(calls[0]!.event.rawPath).toBe('/emails/%41%2F');
  });

  it("passes every route of the manifest, reached with doubled slashes, to its area's function as the exact route", async () => {
    const { calls, handler } = recording();
    for (const route of ROUTES) {
      const path = pathOf(route.path);
      for (const doubled of [`/${path}`, path.replace(/\//g, '//'), `/${path}/`]) {
        calls.length = 0;
        const out = await handler(defaultEvent(route.method, doubled));
        expect(out, `${route.method} ${doubled}`).toEqual({ statusCode: 200, body: '{"ok":true}' });
        expect(calls).toHaveLength(1);
        const [{ area, event }] = calls as [{ area: Area; event: ApiEvent }];
        expect(area).toBe(route.area);
        expect(event.routeKey).toBe(routeKey(route));
        expect(event.requestContext.routeKey).toBe(routeKey(route));
        expect(event.rawPath).toBe(normalisePath(doubled));
        expect(event.requestContext.http).toMatchObject({
          method: route.method,
          path: normalisePath(doubled),
          sourceIp: '203.0.113.9',
        });
        expect(event.pathParameters ?? {}).toEqual(
          Object.fromEntries((route.path.match(/\{(\w+)\}/g) ?? []).map((p) => [p.slice(1, -1), ID])),
        );
        expect(event).toMatchObject({
          headers: { authorization: 'Bearer re_x' },
          body: '{"a":1}',
          queryStringParameters: { limit: '5' },
          rawQueryString: 'limit=5',
        });
      }
    }
  });

  it('takes path parameters as API Gateway decoded them (a request for //contacts/ada%40example.com)', async () => {
    const { calls, handler } = recording();
    await handler(defaultEvent('PATCH', '//contacts/ada@example.com'));
    expect(calls[0]!.event.pathParameters).toEqual({ id: 'ada@example.com' });
  });

  it('answers through the catalog what names no route even with its slashes read as one, and a failed hand-over as a 500', async () => {
    const { calls, handler } = recording();
    const missing = await handler(defaultEvent('GET', '//no-such-thing'));
    expect(missing.statusCode).toBe(404);
    expect(JSON.parse(missing.body!)).toMatchObject({
      name: 'not_found',
      message: 'The requested endpoint does not exist: GET /no-such-thing.',
    });
    const method = await handler(defaultEvent('PUT', '//emails'));
    expect(method.statusCode).toBe(405);
    expect(JSON.parse(method.body!)).toMatchObject({ name: 'method_not_allowed' });
    expect(calls).toEqual([]);
    const failing = createUnmatchedHandler(async () => {
      throw new Error('boom');
    });
    const out = await failing(defaultEvent('GET', '//emails'));
    expect(out.statusCode).toBe(500);
    expect(JSON.parse(out.body!)).toMatchObject({ name: 'internal_server_error' });
  });
});
