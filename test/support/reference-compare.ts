import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';

type Json = Record<string, any>;

/** The reference API's own OpenAPI description (resend/resend-openapi, MIT). */
export const referenceDocument = (): Json =>
  parse(readFileSync(resolve(import.meta.dirname, '../fixtures/resend-openapi/resend.yaml'), 'utf8'));

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
/** `/contacts/{contact_id}/segments/{segment_id}` -> `/contacts/{}/segments/{}`: parameter names differ between documents. */
export const shapeOf = (path: string): string => path.replace(/\{[^}]+\}/g, '{}');

/** The operation `METHOD shape` of a document, if any. */
const operations = (doc: Json): Map<string, { path: string; operation: Json }> => {
  const out = new Map<string, { path: string; operation: Json }>();
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const method of METHODS)
      if (item[method]) out.set(`${method.toUpperCase()} ${shapeOf(path)}`, { path, operation: item[method] });
  }
  return out;
};

/** Resolves `$ref`s and merges `allOf`, so a schema's declared properties can be read. */
const resolver = (doc: Json) => {
  const deref = (schema: Json | undefined): Json => {
    if (!schema) return {};
    if (schema.$ref)
      return deref(
        String(schema.$ref)
          .replace(/^#\//, '')
          .split('/')
          .reduce((node: Json, key: string) => node?.[key], doc),
      );
    if (schema.allOf) {
      const parts = schema.allOf.map(deref);
      return { type: 'object', properties: Object.assign({}, ...parts.map((p: Json) => p.properties ?? {})) };
    }
    return schema;
  };
  return deref;
};

const successSchema = (operation: Json): Json | undefined => {
  const status = Object.keys(operation.responses ?? {}).find((s) => s.startsWith('2'));
  return status ? operation.responses[status]?.content?.['application/json']?.schema : undefined;
};

/** The properties a schema declares, through `anyOf`/`oneOf` branches (any branch may carry a field). */
const propertiesOf = (deref: (s: Json | undefined) => Json, schema: Json | undefined): Record<string, Json> => {
  const s = deref(schema);
  const branches = [...(s.anyOf ?? []), ...(s.oneOf ?? [])].map((b: Json) => propertiesOf(deref, b));
  return Object.assign({}, ...branches, s.properties ?? {});
};

/**
 * Every difference between the reference and our document, one line each:
 * - `METHOD /path`: a reference operation we do not serve;
 * - `METHOD /path response.field`: a field the reference declares in its success body that ours does not;
 * - `METHOD /path body.field`: a request field the reference accepts that ours does not (or refuses on purpose).
 * Paths are written in the reference's spelling.
 */
export const referenceDifferences = (ours: Json, reference: Json = referenceDocument()): string[] => {
  const own = operations(ours);
  const derefOurs = resolver(ours);
  const derefRef = resolver(reference);
  const out: string[] = [];
  for (const [key, { path, operation }] of operations(reference)) {
    const method = key.split(' ')[0]!;
    const mine = own.get(key);
    // An operation of ours that only refuses (no 2xx) does not serve the reference's.
    if (!mine || !Object.keys(mine.operation.responses ?? {}).some((s) => s.startsWith('2'))) {
      out.push(`${method} ${path}`);
      continue;
    }
    const compare = (prefix: string, theirs: Json | undefined, ours2: Json | undefined, depth: number) => {
      const a = propertiesOf(derefRef, theirs);
      const b = propertiesOf(derefOurs, ours2);
      for (const [name, schema] of Object.entries(a)) {
        if (!(name in b)) {
          out.push(`${method} ${path} ${prefix}.${name}`);
          continue;
        }
        const ta = derefRef(schema);
        const tb = derefOurs(b[name]);
        if (depth > 0 && ta.type === 'array' && tb.type === 'array')
          compare(`${prefix}.${name}[]`, ta.items, tb.items, depth - 1);
      }
    };
    compare('response', successSchema(operation), successSchema(mine.operation), 1);
    const theirBody = operation.requestBody?.content?.['application/json']?.schema;
    const ourBody = mine.operation.requestBody?.content?.['application/json']?.schema;
    if (theirBody) {
      const a = propertiesOf(derefRef, theirBody);
      const b = propertiesOf(derefOurs, ourBody);
      for (const name of Object.keys(a)) {
        const accepted = name in b && !('not' in derefOurs(b[name]));
        if (!accepted) out.push(`${method} ${path} body.${name}`);
      }
    }
  }
  return out;
};
