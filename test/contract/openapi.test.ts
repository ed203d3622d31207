import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { missingSchemas, routeErrors } from '@mailstack/core/http/openapi';
import { ERROR_STATUS } from '@mailstack/core/errors/catalog';
import { REST_ROUTES, routeKey } from '../../functions/routes.ts';
import { declarationOf, openApiDocument } from '../../functions/openapi/document.ts';
import { REFERENCE_DIFFERENCES } from '../../functions/openapi/reference-differences.ts';
import { referenceDifferences } from '../support/reference-compare.ts';
import { responseProblems } from '../support/own-document.ts';
import { call, local } from '../support/local.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const served = async () => {
  const out = await call('GET', '/openapi.json');
  expect(out.status, out.text).toBe(200);
  return out.json;
};

describe('GET /openapi.json', () => {
  it('is served without a key, validates as OpenAPI 3.1 and names version 1.0.0 and this server', async () => {
    const doc = await served();
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers).toEqual([{ url: local().baseUrl }]);
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('is what `npm run openapi` writes, both generated from the route declarations', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'openapi-')), 'openapi.json');
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/openapi.ts', '--out', out, '--server', local().baseUrl], { cwd: ROOT });
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(await served());
  });

  it('describes every REST route of the manifest (all but the MCP server\'s): a route without its schemas fails here', async () => {
    const doc = await served();
    const missing = REST_ROUTES.flatMap((route) => missingSchemas(declarationOf(route)).map((what) => `${routeKey(route)} lacks ${what}`));
    expect(missing).toEqual([]);
    for (const route of REST_ROUTES) {
      const operation = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(operation, `${routeKey(route)} is not in the document`).toBeDefined();
      const declaration = declarationOf(route)!;
      // Every path parameter, the request body when the route takes one, the success body, and each error name by status.
      expect(operation.parameters.filter((p: any) => p.in === 'path').map((p: any) => p.name)).toEqual([...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
      if (declaration.body) expect(operation.requestBody, `${routeKey(route)} request body`).toBeDefined();
      if (declaration.response.type !== 'never') expect(operation.responses[String(declaration.status ?? 200)].content, `${routeKey(route)} success body`).toBeDefined();
      for (const name of routeErrors(declaration, route.path)) {
        expect(operation.responses[String(ERROR_STATUS[name])]?.content['application/json'].schema.properties.name.enum, `${routeKey(route)} ${name}`).toContain(name);
      }
    }
    expect(Object.values<any>(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0)).toBe(REST_ROUTES.length);
  });

  it('describes request headers and refusals the stack adds: idempotency, batch mode, authentication', async () => {
    const doc = await served();
    const send = doc.paths['/emails'].post;
    expect(send.parameters.map((p: any) => `${p.in}:${p.name}`)).toContain('header:Idempotency-Key');
    expect(send.responses['409'].content['application/json'].schema.properties.name.enum).toEqual(['invalid_idempotent_request', 'concurrent_idempotent_requests']);
    expect(doc.paths['/emails/batch'].post.parameters.find((p: any) => p.name === 'x-batch-validation').schema.enum).toEqual(['strict', 'permissive']);
    expect(doc.paths['/openapi.json'].get.security).toEqual([]);
    expect(doc.paths['/domains'].get.responses['403'].content['application/json'].schema.properties.name.enum).toEqual(['restricted_api_key']);
  });

  it('holds a response to the document: a status, content type or body it does not describe is a problem', async () => {
    const doc = await served();
    expect(responseProblems(doc, 'GET', '/topics', 200, 'application/json', JSON.stringify({ object: 'list', has_more: false, data: [] }))).toEqual([]);
    expect(responseProblems(doc, 'GET', '/topics', 200, 'application/json', JSON.stringify({ object: 'list', data: [] }))[0]).toContain("must have required property 'has_more'");
    expect(responseProblems(doc, 'GET', '/topics', 409, 'application/json', JSON.stringify({ statusCode: 409, name: 'conflict', message: 'x' }))[0]).toContain('lists no 409');
    expect(responseProblems(doc, 'POST', '/topics', 404, 'application/json', JSON.stringify({ statusCode: 404, name: 'not_found', message: 'x' }))[0]).toContain('lists no 404');
    expect(responseProblems(doc, 'GET', '/nowhere', 404, 'application/json', JSON.stringify({ statusCode: 404, name: 'not_found', message: 'x' }))).toEqual([]);
  });
});

describe('the reference API description', () => {
  it('is served with a compatible shape, operation by operation, or listed in the table of deliberate differences', async () => {
    const actual = referenceDifferences(await served()).sort();
    const listed = REFERENCE_DIFFERENCES.flatMap((d) => d.operations).sort();
    expect(actual.filter((d) => !listed.includes(d)), 'differences from the reference that the table does not list (serve them, or add them with the spec\'s reason)').toEqual([]);
    expect(listed.filter((d) => !actual.includes(d)), 'table rows that are no longer differences (remove them)').toEqual([]);
    for (const row of REFERENCE_DIFFERENCES) expect(row.reason).toMatch(/Spec §\d/);
  });

  it('finds a missing response field, a refused request field and an unserved operation', () => {
    const doc = openApiDocument('http://127.0.0.1');
    const topic = doc.paths['/topics/{id}'].get.responses['200'].content['application/json'].schema;
    delete topic.properties.default_subscription;
    doc.paths['/domains/{id}'].patch.requestBody.content['application/json'].schema.properties.open_tracking = { not: {} };
    delete doc.paths['/segments/{id}'].delete;
    expect(referenceDifferences(doc)).toEqual(expect.arrayContaining([
      'GET /topics/{id} response.default_subscription',
      'PATCH /domains/{domain_id} body.open_tracking',
      'DELETE /segments/{id}',
    ]));
  });
});
