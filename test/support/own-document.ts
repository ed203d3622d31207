import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { ERROR_STATUS } from '@mailstack/core/errors/catalog';

type Json = Record<string, any>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
const compiled = new WeakMap<object, ValidateFunction>();
/** A schema of the document, compiled with the document's components beside it, so its `#/components/schemas/...` references resolve. */
const validator = (schema: Json, doc?: Json): ValidateFunction => {
  let fn = compiled.get(schema);
  if (!fn)
    compiled.set(schema, (fn = ajv.compile(doc?.components ? { ...schema, components: doc.components } : schema)));
  return fn;
};

/** Any error body: `{statusCode, name, message}` with a catalog name and its status. */
const ANY_ERROR = {
  type: 'object',
  properties: {
    statusCode: { type: 'integer' },
    name: { enum: Object.keys(ERROR_STATUS) },
    message: { type: 'string' },
  },
  required: ['statusCode', 'name', 'message'],
  additionalProperties: false,
};

/** The operation of the document a request reaches: literal paths win over parameters, as on both hosts. */
export const findOperation = (
  doc: Json,
  method: string,
  pathname: string,
): { path: string; operation: Json } | undefined => {
  const candidates = Object.keys(doc.paths)
    .map((path) => ({
      path,
      params: (path.match(/\{/g) ?? []).length,
      pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '[^/]+')}/?$`),
    }))
    .filter((c) => c.pattern.test(pathname))
    .sort((a, b) => a.params - b.params);
  for (const c of candidates) {
    const operation = doc.paths[c.path][method.toLowerCase()];
    if (operation) return { path: c.path, operation };
  }
  return undefined;
};

const describe = (fn: ValidateFunction): string =>
  (fn.errors ?? [])
    .slice(0, 5)
    .map(
      (e) =>
        `${e.instancePath || '<body>'} ${e.message}${e.params && 'allowedValues' in e.params ? ` (${JSON.stringify(e.params.allowedValues)})` : ''}`,
    )
    .join('; ');

/**
 * Every way a response differs from what the document promises for its request: a status the
 * operation does not list, a content type it does not list, or a body its schema refuses.
 */
export const responseProblems = (
  doc: Json,
  method: string,
  pathname: string,
  status: number,
  contentType: string,
  text: string,
): string[] => {
  const where = `${method} ${pathname} → ${status}`;
  let body: unknown;
  const isJson = contentType.includes('application/json');
  if (isJson) {
    try {
      body = JSON.parse(text);
    } catch {
      return [`${where}: the body is not JSON although the content type says so`];
    }
  }
  const found = findOperation(doc, method, pathname);
  if (!found) {
    // No such operation: only the catalog's "does not exist" and "method not allowed" answers are right.
    if (![404, 405].includes(status))
      return [`${where}: the document has no operation for this request, yet it answered ${status}`];
    const fn = validator(ANY_ERROR);
    return isJson && fn(body) ? [] : [`${where}: not an error body: ${isJson ? describe(fn) : contentType}`];
  }
  const response = found.operation.responses?.[String(status)];
  if (!response) {
    const name = isJson && body && typeof body === 'object' ? ` (${(body as Json).name})` : '';
    return [
      `${where}${name}: the document lists no ${status} for ${method} ${found.path} (it lists ${Object.keys(found.operation.responses).join(', ')})`,
    ];
  }
  // A response described without a body (a redirect) holds whatever it carries.
  if (!response.content) return [];
  const mediaType = Object.keys(response.content ?? {}).find((type) => contentType.includes(type));
  if (!mediaType)
    return [
      `${where}: content type ${contentType || '(none)'} is not one the document lists (${Object.keys(response.content ?? {}).join(', ')})`,
    ];
  if (!isJson) return [];
  const fn = validator(response.content[mediaType].schema, doc);
  return fn(body)
    ? []
    : [
        `${where}: the body does not match the document's schema for ${method} ${found.path} ${status}: ${describe(fn)}`,
      ];
};
