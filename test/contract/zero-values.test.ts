import { describe, expect, it } from 'vitest';
import type * as v from 'valibot';
import { REST_ROUTES, routeKey, type RouteEntry } from '../../functions/routes.ts';
import { AREA_ENTRIES } from '../../functions/openapi/areas.ts';
import { pathParameters } from '@mailstack/core/http/path-ids';
import { answersList, bodyKind } from '@mailstack/core/http/boundary';
import { SendEmailRequest } from '@mailstack/core/schemas/emails';
import { CreateContactRequest } from '@mailstack/core/schemas/contacts';
import { keptEmpty } from '@mailstack/core/schemas/validate';
import { call, newTeam } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';

/**
 * Clients in typed languages (Go, Java, .NET, Rust) send every field of their request structs:
 * `""` for a string their user never set, `[]` and `{}` for empty lists and maps, `"id": ""`
 * beside a path id. On every route an empty optional field reads as absent; a required one
 * that is empty is still refused naming it.
 */

type Node = v.GenericSchema & { wrapped?: Node; pipe?: Node[]; options?: Node[]; entries?: Record<string, Node> };

const OPTIONAL = new Set(['optional', 'nullish', 'exact_optional', 'undefinedable']);
const unwrap = (s: Node): Node =>
  s.type === 'pipe' && s.pipe?.[0] ? unwrap(s.pipe[0]) : s.wrapped ? unwrap(s.wrapped) : s;

/** The zero value a typed client sends for a field of this schema, or undefined for a number or boolean (their zero is a value). */
const zeroOf = (schema: Node): unknown => {
  const s = unwrap(schema);
  if (s.type === 'array' || s.type === 'tuple') return [];
  if (['object', 'strict_object', 'loose_object', 'record', 'object_with_rest'].includes(s.type)) return {};
  if (s.type === 'union' || s.type === 'variant') return zeroOf(s.options![0]!);
  if (['number', 'boolean', 'unknown', 'any'].includes(s.type)) return undefined;
  if (s.type === 'literal' && typeof (s as { literal?: unknown }).literal !== 'string') return undefined;
  return '';
};

/** Each optional field of an object schema with its zero value. */
const zeroFields = (schema: v.GenericSchema | undefined): Record<string, unknown> => {
  if (!schema) return {};
  const s = unwrap(schema as Node);
  if (!s.entries) return {};
  return Object.fromEntries(
    Object.entries(s.entries)
      .filter(([, entry]) => OPTIONAL.has((entry.type === 'pipe' ? entry.pipe![0]! : entry).type))
      // A field whose empty value means something (`actions: []` clears the list) is not one left out.
      .filter(([, entry]) => !keptEmpty(entry))
      .map(([key, entry]) => [key, zeroOf(entry)] as const)
      .filter(([, zero]) => zero !== undefined),
  );
};

/** Routes whose body is an array of items each checked with its own schema. */
const ITEM_SCHEMAS: Record<string, v.GenericSchema> = {
  'POST /emails/batch': SendEmailRequest,
  'POST /contacts/batch': CreateContactRequest,
};

const declarationOf = (route: RouteEntry & { area: keyof typeof AREA_ENTRIES }) =>
  AREA_ENTRIES[route.area].routes[routeKey(route)]!.route;

const UUID = '01a00000-0000-7000-8000-0000000000aa';

describe('zero values for absent fields, on every route', () => {
  it('reads `""`, `[]`, `{}` in every optional body field, and `""` in a path id repeated in the body, as the field left out', async () => {
    const { secret } = await newTeam();
    const tried: string[] = [];
    for (const route of REST_ROUTES) {
      const declaration = declarationOf(route);
      if (declaration.bodyFormat === 'form' || route.method === 'GET') continue;
      const params = pathParameters(route.path);
      const ids = Object.fromEntries(
        params.flatMap((p, i) => [[`${p.resource}_id`, ''], ...(i === params.length - 1 ? [['id', '']] : [])]),
      );
      const item = ITEM_SCHEMAS[routeKey(route)];
      const zeros = item ? zeroFields(item) : { ...zeroFields(declaration.body), ...ids };
      if (Object.keys(zeros).length === 0) continue;
      if (!item && bodyKind(declaration.body) === 'array')
        throw new Error(`${routeKey(route)}: a body that is not an object; name its item schema in ITEM_SCHEMAS`);
      const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'token' ? 'not-a-token' : UUID));
      const absent = await call(route.method, path, { key: secret, body: item ? [{}] : {} });
      const out = await call(route.method, path, { key: secret, body: item ? [zeros] : zeros });
      tried.push(routeKey(route));
      // The same answer as with the fields left out (the message too, for a refusal of the body: which lookup misses first may vary).
      const answer = (r: typeof out) => ({
        status: r.status,
        name: r.json?.name,
        ...(r.status === 422 ? { message: r.json?.message } : {}),
      });
      expect(answer(out), `${routeKey(route)} ${JSON.stringify(zeros)}: ${out.text}`).toEqual(answer(absent));
    }
    expect(tried).toEqual(
      expect.arrayContaining([
        'POST /emails',
        'POST /emails/batch',
        'POST /broadcasts/{id}/send',
        'PATCH /contacts/{id}',
        'POST /templates',
      ]),
    );
  });

  it('reads empty `limit=&after=&before=` and every empty optional filter as left out, on every list route of the manifest', async () => {
    const { secret } = await newTeam();
    /** The query's optional fields sent empty, through an intersection of paging and filters too. */
    const emptyFilters = (schema: v.GenericSchema | undefined): Record<string, string> => {
      const s = schema && unwrap(schema as Node);
      if (s?.type === 'intersect') return Object.assign({}, ...(s.options ?? []).map(emptyFilters));
      return Object.fromEntries(
        Object.entries(zeroFields(schema)).filter(([, zero]) => zero === '') as [string, string][],
      );
    };
    const tried: string[] = [];
    for (const route of REST_ROUTES) {
      const declaration = declarationOf(route);
      if (route.method !== 'GET' || !answersList(declaration.response)) continue;
      const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'token' ? 'not-a-token' : UUID));
      const empty = new URLSearchParams({ limit: '', after: '', before: '', ...emptyFilters(declaration.query) });
      const absent = await call('GET', path, { key: secret });
      const out = await call('GET', `${path}?${empty.toString()}`, { key: secret });
      tried.push(routeKey(route));
      const answer = (r: typeof out) => ({ status: r.status, name: r.json?.name, message: r.json?.message });
      expect(answer(out), `${routeKey(route)}?${empty.toString()}: ${out.text}`).toEqual(answer(absent));
    }
    expect(tried).toEqual(
      expect.arrayContaining(['GET /contacts', 'GET /suppressions', 'GET /automations', 'GET /automations/{id}/runs']),
    );
    expect(tried.length).toBeGreaterThanOrEqual(33);
  });

  it('sends with a template when the Go SDK sends `"from": ""` and `"subject": ""`, and sends a broadcast now with `"scheduled_at": ""`', async () => {
    const t = await sendingTeam();
    const template = await call('POST', '/templates', {
      key: t.secret,
      body: {
        name: 'Hello',
        html: '<p>Hi</p>',
        from: t.from,
        subject: 'From the template',
        text: '',
        alias: '',
        reply_to: [],
        variables: [],
      },
    });
    expect(template.status, template.text).toBe(201);
    await call('POST', `/templates/${template.json.id}/publish`, { key: t.secret, body: { id: '' } });
    // The Go SDK's SendEmailRequest: from, to and subject always, the rest omitted when empty; Java and .NET send them all.
    const sent = await call('POST', '/emails', {
      key: t.secret,
      body: {
        from: '',
        to: ['ada@example.com'],
        subject: '',
        cc: [],
        bcc: [],
        reply_to: '',
        html: '',
        text: '',
        tags: [],
        attachments: [],
        headers: {},
        scheduled_at: '',
        topic_id: '',
        template: { id: template.json.id, variables: {} },
      },
    });
    expect(sent.status, sent.text).toBe(200);
    const email = await call('GET', `/emails/${sent.json.id}`, { key: t.secret });
    expect(email.json).toMatchObject({ from: t.from, subject: 'From the template', scheduled_at: null });

    const segment = await call('POST', '/segments', { key: t.secret, body: { name: 'Readers' } });
    await call('POST', '/contacts', {
      key: t.secret,
      body: {
        email: 'reader@example.com',
        first_name: '',
        last_name: '',
        properties: {},
        segments: [{ id: segment.json.id }],
        topics: [],
      },
    });
    const broadcast = await call('POST', '/broadcasts', {
      key: t.secret,
      body: {
        segment_id: segment.json.id,
        audience_id: '',
        from: t.from,
        subject: 'News',
        html: '<p>News</p>',
        text: '',
        name: '',
        reply_to: [],
        preview_text: '',
        topic_id: '',
        scheduled_at: '',
        send: false,
      },
    });
    expect(broadcast.status, broadcast.text).toBe(201);
    // The Go SDK's SendBroadcastRequest: the path id and an empty schedule for "now".
    const now = await call('POST', `/broadcasts/${broadcast.json.id}/send`, {
      key: t.secret,
      body: { broadcast_id: broadcast.json.id, scheduled_at: '' },
    });
    expect(now.status, now.text).toBe(200);
    const read = await call('GET', `/broadcasts/${broadcast.json.id}`, { key: t.secret });
    expect(read.json.status).not.toBe('scheduled');
    expect(read.json.scheduled_at).toBeNull();
  });

  it('updates a contact named by address when the body carries `"id": ""`, and keeps refusing an empty required field naming it', async () => {
    const t = await newTeam();
    await call('POST', '/contacts', { key: t.secret, body: { email: 'ada@example.com' } });
    const updated = await call('PATCH', '/contacts/ada@example.com', {
      key: t.secret,
      body: { id: '', email: '', first_name: 'Ada', last_name: '', properties: {} },
    });
    expect(updated.status, updated.text).toBe(200);
    const read = await call('GET', '/contacts/ada@example.com', { key: t.secret });
    expect(read.json).toMatchObject({ first_name: 'Ada', last_name: null });

    for (const [path, body, field] of [
      ['/segments', { name: '' }, 'name'],
      ['/contacts', { email: '', first_name: '' }, 'email'],
      ['/templates', { name: 'T', html: '' }, 'html'],
    ] as const) {
      const refused = await call('POST', path, { key: t.secret, body });
      expect(refused.status, `${path}: ${refused.text}`).toBe(422);
      expect(refused.json.name).toBe('validation_error');
      expect(refused.json.message).toContain(`\`${field}\``);
    }
  });
});
