import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { expect } from 'vitest';

/** The reference API's own OpenAPI description (resend/resend-openapi at fd6f395, MIT; see its LICENSE). */
const SPEC_FILE = resolve(import.meta.dirname, '../fixtures/resend-openapi/resend.yaml');

type Schema = Record<string, any>;
let spec: Schema | undefined;
const load = (): Schema => (spec ??= parse(readFileSync(SPEC_FILE, 'utf8')) as Schema);

const deref = (schema: Schema): Schema => {
  if (schema.$ref) {
    const name = String(schema.$ref).split('/').pop()!;
    return deref(load().components.schemas[name]);
  }
  if (schema.allOf)
    return {
      type: 'object',
      properties: Object.assign({}, ...schema.allOf.map((s: Schema) => deref(s).properties ?? {})),
    };
  return schema;
};

const typeOk = (type: string | string[] | undefined, value: unknown): boolean => {
  if (type === undefined) return true;
  const types = Array.isArray(type) ? type : [type];
  return types.some((t) =>
    t === 'null'
      ? value === null
      : t === 'integer'
        ? Number.isInteger(value)
        : t === 'number'
          ? typeof value === 'number'
          : t === 'array'
            ? Array.isArray(value)
            : t === 'object'
              ? typeof value === 'object' && value !== null && !Array.isArray(value)
              : typeof value === t,
  );
};

/** Every problem of `value` against `schema`: a declared field missing, a wrong type, a value outside an enum. */
const check = (schema: Schema, value: unknown, path: string, problems: string[]): void => {
  const s = deref(schema);
  if (value === null) return; // "null where empty"
  if (s.oneOf || s.anyOf) return;
  if (!typeOk(s.type, value)) {
    problems.push(
      `${path || '<body>'}: expected ${JSON.stringify(s.type)}, got ${JSON.stringify(value)?.slice(0, 80)}`,
    );
    return;
  }
  if (s.enum && !s.enum.includes(value))
    problems.push(`${path}: ${JSON.stringify(value)} is not one of ${s.enum.join(', ')}`);
  if (s.type === 'array' && s.items && Array.isArray(value))
    value.forEach((item, i) => {
      check(s.items, item, `${path}[${i}]`, problems);
    });
  if (s.properties && typeof value === 'object') {
    for (const [name, prop] of Object.entries<Schema>(s.properties)) {
      // A field the reference itself calls conditional ("Only present when `type` is `bounced`",
      // "Present when `domain` is in `dimensions`", "Omitted when `dimensions` is empty", a record's
      // priority "only applicable for MX records", an attachment's content id "for inline attachments")
      // may be absent.
      if (!(name in (value as object))) {
        if (
          !/only present when|^present when|omitted when|only applicable for|for inline attachments/i.test(
            String(prop.description ?? ''),
          )
        )
          problems.push(`${path ? `${path}.` : ''}${name}: declared by the reference schema but missing`);
      } else check(prop, (value as Record<string, unknown>)[name], path ? `${path}.${name}` : name, problems);
    }
  }
};

/**
 * Asserts that a response body carries every field the reference API's schema declares for
 * that operation and status (null where empty), with the declared types and enums.
 */
export const expectReferenceShape = (method: string, path: string, status: number, body: unknown): void => {
  const operation = load().paths[path]?.[method.toLowerCase()];
  if (!operation) throw new Error(`the reference API has no operation ${method} ${path}`);
  const response = operation.responses[String(status)] ?? operation.responses['200'] ?? operation.responses['201'];
  const schema = response?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`the reference API declares no JSON body for ${method} ${path} ${status}`);
  const problems: string[] = [];
  check(schema, body, '', problems);
  expect(problems, `${method} ${path} against the reference schema`).toEqual([]);
};

/** The reference's path template for a request path: literal segments first, as the hosts route. */
const referencePathFor = (method: string, pathname: string): string | undefined => {
  const segments = pathname.replace(/\/$/, '').split('/');
  return Object.keys(load().paths)
    .filter((p) => load().paths[p][method.toLowerCase()])
    .filter((p) => {
      const own = p.split('/');
      return own.length === segments.length && own.every((s, i) => s.startsWith('{') || s === segments[i]);
    })
    .sort((a, b) => (a.match(/\{/g) ?? []).length - (b.match(/\{/g) ?? []).length)[0];
};

/**
 * Every problem of a success response against the reference's schema for its operation, as
 * `expectReferenceShape` finds them (every declared field present, null where empty, declared
 * types and enums); none when the reference has no such operation or declares no JSON body.
 */
export const referenceResponseProblems = (
  method: string,
  pathname: string,
  status: number,
  body: unknown,
): string[] => {
  if (status < 200 || status > 299) return [];
  const path = referencePathFor(method, pathname);
  if (!path) return [];
  const responses = load().paths[path][method.toLowerCase()].responses ?? {};
  const schema = (responses[String(status)] ?? responses['200'] ?? responses['201'])?.content?.['application/json']
    ?.schema;
  if (!schema) return [];
  const problems: string[] = [];
  check(schema, body, '', problems);
  return problems.map((p) => `${method} ${path} (reference) ${p}`);
};

/** A schema with `allOf` merged: properties and `required` together. */
const merged = (schema: Schema): Schema => {
  if (schema.$ref) return merged(load().components.schemas[String(schema.$ref).split('/').pop()!]);
  if (!schema.allOf) return schema;
  const parts = schema.allOf.map(merged);
  return {
    type: 'object',
    properties: Object.assign({}, ...parts.map((p: Schema) => p.properties ?? {})),
    required: parts.flatMap((p: Schema) => p.required ?? []),
  };
};

/** Every problem of `value` against a webhook schema: a required field missing, a wrong type or enum value (optional fields may be left out). */
const checkEvent = (schema: Schema, value: unknown, path: string, problems: string[]): void => {
  const s = merged(schema);
  if (value === null || s.oneOf || s.anyOf) return;
  if (!typeOk(s.type, value)) {
    problems.push(
      `${path || '<body>'}: expected ${JSON.stringify(s.type)}, got ${JSON.stringify(value)?.slice(0, 80)}`,
    );
    return;
  }
  if (s.enum && !s.enum.includes(value))
    problems.push(`${path}: ${JSON.stringify(value)} is not one of ${s.enum.join(', ')}`);
  if (s.const !== undefined && s.const !== value)
    problems.push(`${path}: ${JSON.stringify(value)} is not ${JSON.stringify(s.const)}`);
  if (s.type === 'array' && s.items && Array.isArray(value))
    value.forEach((item, i) => {
      checkEvent(s.items, item, `${path}[${i}]`, problems);
    });
  if (s.properties && typeof value === 'object') {
    for (const name of s.required ?? [])
      if (!(name in (value as object)))
        problems.push(`${path ? `${path}.` : ''}${name}: required by the reference schema but missing`);
    for (const [name, prop] of Object.entries<Schema>(s.properties)) {
      if (name in (value as object))
        checkEvent(prop, (value as Record<string, unknown>)[name], path ? `${path}.${name}` : name, problems);
    }
  }
};

/**
 * Every problem of a webhook payload against the reference's schema for its `type` (the
 * document's `webhooks`): a required field missing, a wrong type or enum value. A type the
 * reference does not declare has none.
 */
export const referenceEventProblems = (payload: { type?: unknown } | undefined): string[] => {
  const type = typeof payload?.type === 'string' ? payload.type : undefined;
  const schema = type ? load().webhooks?.[type]?.post?.requestBody?.content?.['application/json']?.schema : undefined;
  if (!schema) return [];
  const problems: string[] = [];
  checkEvent(schema, payload, '', problems);
  return problems
    .map((p) => `${type} ${p}`)
    .filter((p) => !EVENT_DIFFERENCES.some((d) => p.startsWith(d.problem) && d.when(payload as Schema)));
};

/** Where our payloads differ from the reference's schema on purpose, and why. */
const EVENT_DIFFERENCES: readonly { problem: string; when: (payload: Schema) => boolean; why: string }[] = [
  {
    problem: 'email.suppressed data.suppressed.reason: required by the reference schema but missing',
    when: (p) => !/\((bounce|complaint)\)/.test(String(p.data?.suppressed?.message ?? '')),
    why: "the reference's reasons are previous_bounce and previous_complaint only; a manual or unsubscribe entry has neither, so no reason is claimed",
  },
];
