import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import openapiTS, { astToString } from 'openapi-typescript';
import { missingSchemas, routeErrors } from '@mailstack/core/http/openapi';
import { ERROR_STATUS } from '@mailstack/core/errors/catalog';
import { REST_ROUTES, routeKey } from '../../functions/routes.ts';
import { declarationOf, openApiDocument } from '../../functions/openapi/document.ts';
import { COMPONENT_SCHEMAS } from '../../functions/openapi/components.ts';
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
    await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/openapi.ts', '--out', out, '--server', local().baseUrl],
      { cwd: ROOT },
    );
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(await served());
  });

  it("describes every REST route of the manifest (all but the MCP server's): a route without its schemas fails here", async () => {
    const doc = await served();
    const missing = REST_ROUTES.flatMap((route) =>
      missingSchemas(declarationOf(route)).map((what) => `${routeKey(route)} lacks ${what}`),
    );
    expect(missing).toEqual([]);
    for (const route of REST_ROUTES) {
      const operation = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(operation, `${routeKey(route)} is not in the document`).toBeDefined();
      const declaration = declarationOf(route)!;
      // Every path parameter, the request body when the route takes one, the success body, and each error name by status.
      expect(operation.parameters.filter((p: any) => p.in === 'path').map((p: any) => p.name)).toEqual(
        [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]),
      );
      if (declaration.body) expect(operation.requestBody, `${routeKey(route)} request body`).toBeDefined();
      if (declaration.response.type !== 'never')
        expect(
          operation.responses[String(declaration.status ?? 200)].content,
          `${routeKey(route)} success body`,
        ).toBeDefined();
      for (const name of routeErrors(declaration, route.path)) {
        expect(
          operation.responses[String(ERROR_STATUS[name])]?.content['application/json'].schema.properties.name.enum,
          `${routeKey(route)} ${name}`,
        ).toContain(name);
      }
    }
    expect(Object.values<any>(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0)).toBe(REST_ROUTES.length);
  });

  it('describes request headers and refusals the stack adds: idempotency, batch mode, authentication', async () => {
    const doc = await served();
    const send = doc.paths['/emails'].post;
    expect(send.parameters.map((p: any) => `${p.in}:${p.name}`)).toContain('header:Idempotency-Key');
    expect(send.responses['409'].content['application/json'].schema.properties.name.enum).toEqual([
      'invalid_idempotent_request',
      'concurrent_idempotent_requests',
    ]);
    expect(
      doc.paths['/emails/batch'].post.parameters.find((p: any) => p.name === 'x-batch-validation').schema.enum,
    ).toEqual(['strict', 'permissive']);
    expect(doc.paths['/openapi.json'].get.security).toEqual([]);
    expect(doc.paths['/domains'].get.responses['403'].content['application/json'].schema.properties.name.enum).toEqual([
      'restricted_api_key',
    ]);
  });

  it('holds a response to the document: a status, content type or body it does not describe is a problem', async () => {
    const doc = await served();
    expect(
      responseProblems(
        doc,
        'GET',
        '/topics',
        200,
        'application/json',
        JSON.stringify({ object: 'list', has_more: false, data: [] }),
      ),
    ).toEqual([]);
    expect(
      responseProblems(doc, 'GET', '/topics', 200, 'application/json', JSON.stringify({ object: 'list', data: [] }))[0],
    ).toContain("must have required property 'has_more'");
    expect(
      responseProblems(
        doc,
        'GET',
        '/topics',
        409,
        'application/json',
        JSON.stringify({ statusCode: 409, name: 'conflict', message: 'x' }),
      )[0],
    ).toContain('lists no 409');
    expect(
      responseProblems(
        doc,
        'POST',
        '/topics',
        404,
        'application/json',
        JSON.stringify({ statusCode: 404, name: 'not_found', message: 'x' }),
      )[0],
    ).toContain('lists no 404');
    expect(
      responseProblems(
        doc,
        'GET',
        '/nowhere',
        404,
        'application/json',
        JSON.stringify({ statusCode: 404, name: 'not_found', message: 'x' }),
      ),
    ).toEqual([]);
  });
});

describe('GET /openapi.json: named schemas', () => {
  it('names the shared schemas under components.schemas (one Error, each resource object, the list envelopes, the request bodies) and refers to them with $ref', async () => {
    const doc = await served();
    const schemas = doc.components.schemas;
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const success = (path: string, method: string, status = '200') =>
      doc.paths[path][method].responses[status].content['application/json'].schema;
    // Each named resource object, and the lists and write answers built alike.
    for (const name of [
      ...Object.keys(COMPONENT_SCHEMAS),
      'Error',
      'OAuthError',
      'TopicList',
      'EmailList',
      'ContactList',
      'TopicRef',
      'DeletedTopic',
    ])
      expect(schemas[name], name).toBeDefined();
    expect(success('/emails/{id}', 'get')).toEqual(ref('Email'));
    expect(success('/emails', 'post')).toEqual(ref('SentEmail'));
    expect(success('/topics', 'get')).toEqual(ref('TopicList'));
    expect(schemas.TopicList.properties.data.items).toEqual(ref('TopicSummary'));
    expect(success('/contacts', 'post', '201')).toEqual(ref('ContactRef'));
    expect(success('/topics/{id}', 'delete')).toEqual(ref('DeletedTopic'));
    expect(schemas.ReceivedEmail.properties.attachments.items).toEqual(ref('InboundAttachment'));
    // Request bodies by their schema's name; the legacy audience path takes the same contact body.
    expect(doc.paths['/emails'].post.requestBody.content['application/json'].schema).toEqual(ref('SendEmailRequest'));
    expect(doc.paths['/audiences/{id}/contacts'].post.requestBody.content['application/json'].schema).toEqual(
      ref('CreateContactRequest'),
    );
    expect(schemas.SendEmailRequest.required).toContain('to');
    // Every refusal refers to the one error body, narrowed to its status and names.
    expect(schemas.Error).toMatchObject({
      required: ['statusCode', 'name', 'message'],
      properties: { name: { enum: Object.keys(ERROR_STATUS) } },
    });
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        for (const [status, response] of Object.entries<any>(operation.responses)) {
          const schema = response.content?.['application/json']?.schema;
          if (Number(status) >= 400 && schema)
            expect(schema.$ref, `${method} ${path} ${status}`).toMatch(/^#\/components\/schemas\/(OAuth)?Error$/);
        }
      }
    }
    // Every name is used, and every $ref names a component.
    const text = JSON.stringify(doc);
    for (const name of Object.keys(schemas))
      expect(text, `components.schemas.${name} is never referred to`).toContain(`"#/components/schemas/${name}"`);
    for (const [, name] of text.matchAll(/"#\/components\/schemas\/(\w+)"/g))
      expect(schemas[name!], name).toBeDefined();
  });

  it('generates a TypeScript client (openapi-typescript) whose types check a send and a contact create, and refuse a send without recipients', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-ts-'));
    writeFileSync(join(dir, 'api.ts'), astToString(await openapiTS(await served())));
    writeFileSync(
      join(dir, 'use.ts'),
      [
        "import type { components, paths } from './api.ts';",
        "type SendBody = paths['/emails']['post']['requestBody'] extends { content: { 'application/json': infer B } } | undefined ? B : never;",
        "type Sent = paths['/emails']['post']['responses'][200]['content']['application/json'];",
        "type ContactBody = paths['/contacts']['post']['requestBody'] extends { content: { 'application/json': infer B } } | undefined ? B : never;",
        "type Created = paths['/contacts']['post']['responses'][201]['content']['application/json'];",
        "export const send: SendBody = { from: 'Acme <hi@acme.example>', to: ['ada@example.com'], subject: 'Hello', html: '<p>Hi</p>', tags: [{ name: 'kind', value: 'welcome' }] };",
        "export const sent: Sent = { id: '3f8e9c1a-0b4d-4c2e-9a7f-1d2e3f4a5b6c' };",
        'export const sentId: string = sent.id;',
        "export const contact: ContactBody = { email: 'ada@example.com', first_name: 'Ada', unsubscribed: false };",
        "export const created: Created = { object: 'contact', id: '3f8e9c1a-0b4d-4c2e-9a7f-1d2e3f4a5b6c' };",
        "export const email: components['schemas']['Email']['id'] = sentId;",
        "export const refusal: components['schemas']['Error'] = { statusCode: 422, name: 'validation_error', message: 'The `to` field is required.' };",
        '// @ts-expect-error a send without recipients',
        "export const noTo: SendBody = { from: 'Acme <hi@acme.example>', subject: 'Hello', html: '<p>Hi</p>' };",
        '// @ts-expect-error a send whose subject is not a string',
        "export const badSubject: SendBody = { from: 'Acme <hi@acme.example>', to: ['ada@example.com'], subject: 42, html: '<p>Hi</p>' };",
        '// @ts-expect-error a contact created without an email',
        "export const noEmail: ContactBody = { first_name: 'Ada' };",
        '// @ts-expect-error an error name the API does not have',
        "export const unknownName: components['schemas']['Error'] = { statusCode: 500, name: 'oops', message: 'x' };",
      ].join('\n'),
    );
    const tsc = resolve(ROOT, 'node_modules/typescript/bin/tsc');
    const run = await promisify(execFile)(
      process.execPath,
      [
        tsc,
        '--noEmit',
        '--strict',
        '--target',
        'es2022',
        '--module',
        'nodenext',
        '--allowImportingTsExtensions',
        '--skipLibCheck',
        join(dir, 'use.ts'),
      ],
      { cwd: dir },
    ).catch((error: { stdout: string }) => error);
    expect(run.stdout, 'tsc on the generated client').toBe('');
  }, 60_000);
});

describe('the reference API description', () => {
  it('is served with a compatible shape, operation by operation, or listed in the table of deliberate differences', async () => {
    const actual = referenceDifferences(await served()).sort();
    const listed = REFERENCE_DIFFERENCES.flatMap((d) => d.operations).sort();
    expect(
      actual.filter((d) => !listed.includes(d)),
      "differences from the reference that the table does not list (serve them, or add them with the spec's reason)",
    ).toEqual([]);
    expect(
      listed.filter((d) => !actual.includes(d)),
      'table rows that are no longer differences (remove them)',
    ).toEqual([]);
    for (const row of REFERENCE_DIFFERENCES) expect(row.reason).toMatch(/Spec §\d/);
  });

  it('finds a missing response field, a refused request field and an unserved operation', () => {
    const doc = openApiDocument('http://127.0.0.1');
    expect(doc.paths['/topics/{id}'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Topic',
    });
    delete doc.components.schemas.Topic.properties.default_subscription;
    expect(doc.paths['/domains/{id}'].patch.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/UpdateDomainRequest',
    });
    doc.components.schemas.UpdateDomainRequest.properties.open_tracking = { not: {} };
    delete doc.paths['/segments/{id}'].delete;
    expect(referenceDifferences(doc)).toEqual(
      expect.arrayContaining([
        'GET /topics/{id} response.default_subscription',
        'PATCH /domains/{domain_id} body.open_tracking',
        'DELETE /segments/{id}',
      ]),
    );
  });
});
