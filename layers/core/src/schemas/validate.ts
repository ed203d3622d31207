import * as v from 'valibot';
import { validationError } from '../errors/api-error.ts';
import { MAX_STORED_NUMBER, MIN_STORED_NUMBER } from '../limits.ts';

/** The schema of the field at `keys` below `schema` (through pipes, wrappers, arrays and the fitting union option). */
const schemaAt = (schema: v.GenericSchema, keys: readonly unknown[]): Node | undefined => {
  let node = schema as Node | undefined;
  for (const key of keys) {
    node = unwrapped(node);
    if (node?.options)
      node = node.options
        .map((o) => unwrapped(o))
        .find((o) => (typeof key === 'number' ? o?.item : o?.entries?.[String(key)]));
    node = typeof key === 'number' ? node?.item : node?.entries?.[String(key)];
  }
  return node;
};

const unwrapped = (schema: v.GenericSchema | undefined): Node | undefined => {
  let node = schema as Node | undefined;
  while (node && (node.type === 'pipe' || node.wrapped))
    node = node.type === 'pipe' ? (node.pipe?.[0] as Node) : node.wrapped;
  return node;
};

/** The message a field's schema was given (`v.string('is required.')`), if any. */
const ownMessage = (schema: v.GenericSchema, keys: readonly unknown[]): string | undefined => {
  const message = unwrapped(schemaAt(schema, keys))?.message;
  return typeof message === 'string' ? message : undefined;
};

const depth = (issue: v.BaseIssue<unknown>): number => issue.path?.length ?? 0;

/**
 * The issue to name for a union none of whose options fit: the option's issue that got deepest
 * into the input (`0.subscription` of a bare array, not "the body must be an array or an
 * object"), when one got deeper than the union itself; else the union's own message.
 */
const deepest = (issue: v.BaseIssue<unknown>): v.BaseIssue<unknown> => {
  if (issue.type !== 'union' || !issue.issues?.length) return issue;
  const best = issue.issues.reduce((a, b) => (depth(b) > depth(a) ? b : a));
  return depth(best) > depth(issue) ? deepest(best) : issue;
};

/**
 * One valibot issue in words: the field at fault (a dotted path) and what is wrong with it; an
 * issue of the whole input names `whole` (the request body, the query).
 */
export const describeIssue = (
  refused: v.BaseIssue<unknown>,
  whole = 'The request body',
  schema?: v.GenericSchema,
): string => {
  const issue = deepest(refused);
  const path = v.getDotPath(issue);
  // An unknown key of a strict object: the spec rejects unsupported input instead of dropping it.
  if (issue.expected === 'never' && path) return `\`${path}\` is not a supported field.`;
  // A required key left out: the field's own words (what it takes), else that it is required.
  if (path && issue.kind === 'schema' && OBJECTS.has(issue.type) && issue.received === 'undefined') {
    const own =
      schema &&
      ownMessage(
        schema,
        issue.path!.map((p) => p.key),
      );
    if (own?.startsWith('is required')) return `\`${path}\`: ${own}`;
    return own ? `\`${path}\` is required: it ${own}` : `\`${path}\` is required.`;
  }
  const where = path ? `\`${path}\`` : whole;
  return `${where}: ${issue.message}`;
};

type Node = v.GenericSchema & {
  message?: unknown;
  wrapped?: v.GenericSchema;
  pipe?: v.GenericSchema[];
  options?: v.GenericSchema[];
  entries?: Record<string, v.GenericSchema>;
  item?: v.GenericSchema;
};

/** Schema kinds that let a field be left out. */
const OPTIONAL = new Set(['optional', 'nullish', 'exact_optional', 'undefinedable']);
const WRAPPERS = new Set(['nullable', 'non_nullable', 'non_nullish', 'non_optional']);
const OBJECTS = new Set(['object', 'strict_object', 'loose_object', 'object_with_rest']);

/** The zero value a typed client sends for a field its user never set: `""`, `[]` or `{}`. */
const isZeroValue = (value: unknown): boolean =>
  value === '' ||
  (Array.isArray(value) && value.length === 0) ||
  (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * An optional field whose empty value means something (`attachments: []` removes every file,
 * `actions: []` clears the list): kept as sent, not read as the field left out.
 */
export const keepsEmpty = <S extends v.GenericSchema>(schema: S) => v.pipe(schema, v.metadata({ keepsEmpty: true }));

/** Whether a field's schema was marked with `keepsEmpty`. */
export const keptEmpty = (entry: v.GenericSchema): boolean =>
  !!(entry as Node).pipe?.some((p) => (p as { metadata?: { keepsEmpty?: boolean } }).metadata?.keepsEmpty === true);

/**
 * Reads a zero value (`""`, `[]`, `{}`) in an optional field as the field left out, at every
 * depth the schema describes (objects, arrays of objects, each part of an intersection, the
 * matching option of a union).
 * Clients in typed languages (Go, Java, .NET, Rust) send every field of their request structs,
 * set or not; a required field stays as sent, so an empty one is still refused naming it.
 */
const dropZeroValues = (schema: v.GenericSchema, input: unknown): unknown => {
  const s = schema as Node;
  if (s.type === 'pipe' && s.pipe?.[0]) return dropZeroValues(s.pipe[0], input);
  if ((OPTIONAL.has(s.type) || WRAPPERS.has(s.type)) && s.wrapped) return dropZeroValues(s.wrapped, input);
  if (OBJECTS.has(s.type) && s.entries && isPlainObject(input)) {
    let out: Record<string, unknown> | undefined;
    for (const [key, value] of Object.entries(input)) {
      const entry = s.entries[key] as Node | undefined;
      if (!entry) continue;
      const bare = entry.type === 'pipe' && entry.pipe?.[0] ? (entry.pipe[0] as Node) : entry;
      if (OPTIONAL.has(bare.type) && isZeroValue(value) && !keptEmpty(entry)) {
        out ??= { ...input };
        delete out[key];
        continue;
      }
      const inner = dropZeroValues(entry, value);
      if (inner !== value) (out ??= { ...input })[key] = inner;
    }
    return out ?? input;
  }
  if (s.type === 'array' && s.item && Array.isArray(input)) {
    const items = input.map((x) => dropZeroValues(s.item!, x));
    return items.some((x, i) => x !== input[i]) ? items : input;
  }
  if (s.type === 'intersect' && s.options) {
    // Every part reads the same input (a list's paging beside its own filters): each drops its own zero fields.
    return s.options.reduce((out: unknown, option) => dropZeroValues(option, out), input);
  }
  if ((s.type === 'union' || s.type === 'variant') && s.options) {
    // The first option the cleaned value fits; the input as sent when none does (its refusal names the field).
    for (const option of s.options) {
      const cleaned = dropZeroValues(option, input);
      if (cleaned !== input && v.is(option, cleaned)) return cleaned;
    }
  }
  return input;
};

const storable = (n: number): boolean =>
  n === 0 || (Number.isFinite(n) && Math.abs(n) <= MAX_STORED_NUMBER && Math.abs(n) >= MIN_STORED_NUMBER);

/**
 * The refusal of the first number in `input` the table could not keep as sent, naming where it
 * is (`properties.score`, `payload.items.2`), or undefined when every number is fine: past
 * 2^53 - 1 a number is already rounded and DynamoDB's document client refuses to write it (a 500
 * if it got that far), JSON's `1e400` reads as Infinity, and DynamoDB stops at 1e-130. Every body
 * and every field passes here, whatever its schema (a payload or a step's config take any JSON).
 * Walked with a list, not recursion: a hostile body may nest deeper than the stack.
 */
export const unstorableNumber = (input: unknown): string | undefined => {
  const todo: [unknown, string][] = [[input, '']];
  for (let next = todo.pop(); next; next = todo.pop()) {
    const [value, path] = next;
    if (typeof value === 'number') {
      // NaN is no JSON: only a form's Number() makes it, and the field's schema names what it takes.
      if (!Number.isNaN(value) && !storable(value))
        return `${path ? `\`${path}\`` : 'A number'}: ${value} cannot be kept as sent. Numbers must be 0 or from ${MIN_STORED_NUMBER} to ${MAX_STORED_NUMBER} (2^53 - 1) in magnitude; send a larger or more precise value as a string.`;
    } else if (value !== null && typeof value === 'object') {
      const entries = Array.isArray(value) ? value.entries() : Object.entries(value);
      for (const [key, inner] of entries)
        if (inner !== null && typeof inner !== 'string' && typeof inner !== 'boolean')
          todo.push([inner, path ? `${path}.${key}` : String(key)]);
    }
  }
  return undefined;
};

/**
 * Parses `input` with `schema`; a failure is 422 validation_error naming each field at fault,
 * or `whole` for a rule of the whole input.
 */
export const validate = <S extends v.GenericSchema>(
  schema: S,
  input: unknown,
  whole = 'The request body',
): v.InferOutput<S> => {
  const unstorable = unstorableNumber(input);
  if (unstorable) throw validationError(unstorable);
  const result = v.safeParse(schema, dropZeroValues(schema, input), { abortPipeEarly: true });
  if (result.success) return result.output;
  const messages = [...new Set(result.issues.map((issue) => describeIssue(issue, whole, schema)))];
  throw validationError(messages.slice(0, 5).join(' '));
};
