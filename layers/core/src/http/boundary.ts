import * as v from 'valibot';
import { ApiError, validationError } from '../errors/api-error.ts';
import { MAX_LINK_TOKEN_BYTES, MAX_PATH_ID_BYTES } from '../limits.ts';
import { Pagination } from '../schemas/common.ts';
import { validate } from '../schemas/validate.ts';
import { pathParameters } from './path-ids.ts';

/**
 * The input boundary every route shares, driven by its declaration: the JSON type its body
 * takes, the bounds of its path ids, and the list conventions (spec §4) of a route that answers
 * a list. A route added later inherits all three from its schemas.
 */

/** The top-level JSON type a body schema takes: 'object', 'array', or 'any' when it cannot tell. */
export type BodyKind = 'object' | 'array' | 'any';

const OBJECT_TYPES = new Set(['object', 'strict_object', 'loose_object', 'object_with_rest', 'record', 'intersect']);
const WRAPPERS = new Set([
  'optional',
  'nullable',
  'nullish',
  'non_optional',
  'non_nullable',
  'non_nullish',
  'exact_optional',
  'undefinedable',
]);

export const bodyKind = (schema: v.GenericSchema | undefined): BodyKind => {
  if (!schema) return 'object';
  const s = schema as v.GenericSchema & {
    wrapped?: v.GenericSchema;
    pipe?: v.GenericSchema[];
    options?: v.GenericSchema[];
  };
  if (s.type === 'pipe' && s.pipe?.[0]) return bodyKind(s.pipe[0]);
  if (WRAPPERS.has(s.type) && s.wrapped) return bodyKind(s.wrapped);
  if (OBJECT_TYPES.has(s.type)) return 'object';
  if (s.type === 'array' || s.type === 'tuple' || s.type === 'strict_tuple' || s.type === 'loose_tuple') return 'array';
  if ((s.type === 'union' || s.type === 'variant') && s.options) {
    const kinds = new Set(s.options.map((o) => bodyKind(o)));
    return kinds.size === 1 ? [...kinds][0]! : 'any';
  }
  return 'any';
};

const jsonType = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'object'
        ? 'an object'
        : `a ${typeof value}`;

/**
 * Refuses a parsed body whose top-level JSON type is not the one the route takes (422): an
 * array where an object is taken (the schema library would read an array as an object with no
 * fields), or anything but an object on a route that takes no body.
 */
export const checkBodyKind = (schema: v.GenericSchema | undefined, body: unknown): void => {
  if (body === undefined) return;
  const kind = bodyKind(schema);
  if (kind === 'object' && (body === null || typeof body !== 'object' || Array.isArray(body))) {
    throw validationError(
      schema
        ? `The request body must be a JSON object; got ${jsonType(body)}.`
        : `This endpoint takes no request body (or an empty JSON object); got ${jsonType(body)}.`,
    );
  }
  if (kind === 'array' && !Array.isArray(body))
    throw validationError(`The request body must be a JSON array; got ${jsonType(body)}.`);
};

/** A path parameter that carries a signed link token rather than a stored id. */
const isTokenParam = (name: string): boolean => name === 'token';

/**
 * Path values that cannot be identifiers answer 404 before any lookup: longer than the longest
 * id (an address, 320 bytes; a signed link token, 2048), or holding control characters.
 */
export const checkPathIds = (routePath: string, values: Readonly<Record<string, string | undefined>>): void => {
  for (const { name, resource } of pathParameters(routePath)) {
    const value = values[name];
    if (value === undefined) continue;
    const max = isTokenParam(name) ? MAX_LINK_TOKEN_BYTES : MAX_PATH_ID_BYTES;
    // eslint-disable-next-line no-control-regex
    if (value === '' || Buffer.byteLength(value) > max || /[\u0000-\u001f\u007f]/.test(value)) {
      const what = resource.replace(/_/g, ' ');
      throw new ApiError(
        'not_found',
        isTokenParam(name)
          ? 'This link is not valid: the token is malformed.'
          : `${what[0]!.toUpperCase()}${what.slice(1)} not found: \`${name}\` must be an id or address of at most ${max} bytes without control characters.`,
      );
    }
  }
};

/** True when a route's success body is a paged list (`{object: 'list', has_more, data}`). */
export const answersList = (response: v.GenericSchema): boolean => {
  const entries = (response as { entries?: Record<string, v.GenericSchema & { literal?: unknown }> }).entries;
  return response.type === 'object' && entries?.object?.literal === 'list' && entries.has_more !== undefined;
};

const LIST_PARAMS = ['limit', 'after', 'before'] as const;

/** Validates `limit`, `after` and `before` (spec §4) on a list route, whatever else its query takes. */
export const checkListParams = (query: Readonly<Record<string, string | undefined>>): void => {
  const given = Object.fromEntries(LIST_PARAMS.filter((k) => query[k] !== undefined).map((k) => [k, query[k]]));
  validate(Pagination, given, 'The query');
};

/** Parses the path parameters with the route's schema: a value that cannot be the id it names is 404, not 422 (nothing by that id exists). */
export const validatePathIds = <S extends v.GenericSchema>(
  schema: S,
  values: Readonly<Record<string, string | undefined>>,
): v.InferOutput<S> => {
  const result = v.safeParse(schema, values, { abortPipeEarly: true });
  if (result.success) return result.output;
  const issue = result.issues[0];
  const name = v.getDotPath(issue) ?? 'id';
  throw new ApiError(
    'not_found',
    `Not found: the path's \`${name}\` ${issue.message.replace(/\.$/, '')} (got ${JSON.stringify(values[name] ?? '')}).`,
  );
};
