import { ApiError, validationError } from '../errors/api-error.ts';

/**
 * Literal path words the reference API places where our routes take an identifier
 * (`/contacts/imports`, `/emails/receiving`): a request naming one fell through to a
 * `{id}` route only because its own endpoint is not served, so it answers "endpoint does not
 * exist", never "Contact not found". `claims` is the PHP SDK's spelling of the reference's
 * `/domains/claim`. Ids are UUIDs, addresses or signed tokens, so no real
 * identifier is one of these words. `test/unit/http/path-ids.test.ts` derives the list from the
 * reference document and the route manifest.
 */
export const UNSERVED_PATH_WORDS: ReadonlySet<string> = new Set([
  'attachments',
  'batch',
  'cancel',
  'claim',
  'claims',
  'imports',
  'metrics',
  'receiving',
  'search',
  'send',
  'share',
]);

/** The parameters of a route template ("/audiences/{id}/contacts/{contact_id}"), in order, each with the resource it names. */
export const pathParameters = (template: string): { name: string; resource: string }[] => {
  const segments = template.split('/').filter(Boolean);
  const out: { name: string; resource: string }[] = [];
  segments.forEach((segment, i) => {
    const match = /^\{(\w+)\}$/.exec(segment);
    if (!match) return;
    // The collection before the parameter names its resource: contacts -> contact, contact-properties -> contact_property.
    const collection = (segments[i - 1] ?? match[1]!).replace(/-/g, '_');
    out.push({ name: match[1]!, resource: collection.replace(/ies$/, 'y').replace(/s$/, '') });
  });
  return out;
};

/** True when a request's path parameters name a literal word of an unserved endpoint rather than an identifier. */
export const namesUnservedPath = (values: Readonly<Record<string, string | undefined>>): boolean =>
  Object.values(values).some((value) => value !== undefined && UNSERVED_PATH_WORDS.has(value));

const sameId = (a: string, b: string): boolean =>
  a.includes('@') || b.includes('@') ? a.trim().toLowerCase() === b.trim().toLowerCase() : a === b;

/**
 * Several official SDKs repeat the path's identifiers in the JSON body (`PATCH /domains/{id}`
 * with `{"id": ...}`, `PATCH /audiences/{a}/contacts/{c}` with `audience_id` and `id`). Each such
 * field is accepted when it equals the path value (an address compared case-insensitively) and
 * removed before the route's schema sees the body; a different value is 422 naming both. The
 * aliases of a parameter are `<resource>_id`; the last parameter (the path's own resource) also
 * answers to `id`, and a contact named by address to `email`. An empty string is the field left
 * out (the zero value typed clients send for a field their user never set).
 */
export const absorbPathIds = (
  routePath: string,
  values: Readonly<Record<string, string | undefined>>,
  body: unknown,
): unknown => {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const params = pathParameters(routePath);
  if (params.length === 0) return body;
  const rest: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  params.forEach((param, i) => {
    const value = values[param.name];
    if (value === undefined) return;
    const aliases = [`${param.resource}_id`];
    if (i === params.length - 1) aliases.push('id');
    if (param.resource === 'contact' && value.includes('@')) aliases.push('email');
    for (const field of aliases) {
      if (!(field in rest)) continue;
      const given = rest[field];
      // A typed client's zero value (`"id": ""`) is the field left out.
      if (given === '') {
        delete rest[field];
        continue;
      }
      if (typeof given !== 'string' || !sameId(given, value)) {
        throw validationError(
          `\`${field}\` in the body (${JSON.stringify(given)}) does not match the ${param.resource.replace(/_/g, ' ')} of the path (${JSON.stringify(value)}). Send the same value, or leave the field out: the path names the ${param.resource.replace(/_/g, ' ')}.`,
        );
      }
      delete rest[field];
    }
  });
  return rest;
};

/** The refusal for a path that only looks like a resource id. */
export const endpointDoesNotExist = (method: string, path: string): ApiError =>
  new ApiError('not_found', `The requested endpoint does not exist: ${method} ${path}.`);
