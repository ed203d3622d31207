import * as v from 'valibot';
import { Id, ReplyToList, StoredBody, Timestamp } from './common.ts';
import { MAX_SUBJECT_LENGTH, MAX_TEMPLATE_VARIABLES_BYTES } from '../limits.ts';

/** Variable names the service fills itself (contact fields, the unsubscribe link), so a template may not declare them. */
export const RESERVED_VARIABLES = [
  'FIRST_NAME',
  'LAST_NAME',
  'EMAIL',
  'UNSUBSCRIBE_URL',
  'RESEND_UNSUBSCRIBE_URL',
  'CONTACT',
  'THIS',
] as const;
const RESERVED = new Set<string>(RESERVED_VARIABLES);

/** The variable types of the reference (the SDK's `string | number`, the wider OpenAPI set). */
export const VARIABLE_TYPES = ['string', 'number', 'boolean', 'object', 'list'] as const;

const fallbackFits = (type: string, value: unknown): boolean => {
  if (value === null || value === undefined) return true;
  switch (type) {
    case 'string':
      return typeof value === 'string' && value.length <= 2000;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'list':
      return Array.isArray(value);
    default:
      return typeof value === 'object' && !Array.isArray(value);
  }
};

const Variable = v.pipe(
  v.strictObject({
    id: v.optional(v.string()),
    key: v.pipe(
      v.string('is required: the variable name.'),
      v.regex(
        /^[A-Za-z_][A-Za-z0-9_]{0,49}$/,
        'must start with a letter or `_` and hold only letters, digits and `_` (at most 50).',
      ),
      v.check(
        (k) => !RESERVED.has(k.toUpperCase()),
        `is a reserved name (${RESERVED_VARIABLES.join(', ')}): the service fills it; pick another.`,
      ),
    ),
    type: v.picklist(VARIABLE_TYPES, `must be one of ${VARIABLE_TYPES.map((t) => `\`${t}\``).join(', ')}.`),
    fallback_value: v.optional(v.unknown()),
  }),
  v.forward(
    v.check(
      (x) => fallbackFits(x.type, x.fallback_value),
      "must match the variable's `type` (a string of at most 2,000 characters for `string`, a number for `number`), or be null.",
    ),
    ['fallback_value'],
  ),
);

const Variables = v.pipe(
  v.array(Variable, 'must be an array of {key, type, fallback_value}.'),
  v.maxLength(50, 'may hold at most 50 variables.'),
  v.check((list) => new Set(list.map((x) => x.key)).size === list.length, 'declares the same `key` twice.'),
  v.check(
    (list) => Buffer.byteLength(JSON.stringify(list)) <= MAX_TEMPLATE_VARIABLES_BYTES,
    `must be at most ${MAX_TEMPLATE_VARIABLES_BYTES} bytes of JSON together (keys and fallback values).`,
  ),
);

const ReplyTo = v.nullable(ReplyToList);
const Text = (max: number) =>
  v.pipe(v.string('must be a string.'), v.maxLength(max, `must be at most ${max} characters.`));
const Alias = v.nullable(
  v.pipe(
    v.string('must be a string.'),
    v.regex(
      // biome-ignore lint/complexity/noUselessEscapeInRegex: the dashboard renders this as an input pattern, which browsers compile with the v flag, where a bare `-` ending a class is refused.
      /^[A-Za-z0-9][A-Za-z0-9_.\-]{0,99}$/,
      'must be 1 to 100 letters, digits, `_`, `-` or `.`, starting with a letter or digit.',
    ),
    v.check((a) => !/^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(a), 'must not look like a template id (a UUID).'),
  ),
);

/** POST /templates */
export const CreateTemplateRequest = v.strictObject({
  name: v.pipe(
    v.string('is required.'),
    v.minLength(1, 'is required.'),
    v.maxLength(200, 'must be at most 200 characters.'),
  ),
  html: v.pipe(
    v.string('is required: the template body.'),
    v.minLength(1, 'is required: the template body.'),
    StoredBody,
  ),
  alias: v.optional(Alias),
  subject: v.optional(v.nullable(Text(MAX_SUBJECT_LENGTH))),
  text: v.optional(v.nullable(v.pipe(v.string('must be a string.'), StoredBody))),
  from: v.optional(v.nullable(v.string('must be a sender such as `Acme <hello@acme.com>`.'))),
  reply_to: v.optional(ReplyTo),
  variables: v.optional(v.nullable(Variables)),
});
export type CreateTemplateRequest = v.InferOutput<typeof CreateTemplateRequest>;

/** PATCH /templates/{id}: any create field. */
export const UpdateTemplateRequest = v.partial(CreateTemplateRequest);
export type UpdateTemplateRequest = v.InferOutput<typeof UpdateTemplateRequest>;

/** `template` on POST /emails and each batch item: a template's id or alias, and its variables. */
export const EmailTemplateRef = v.strictObject({
  id: v.pipe(
    v.string('is required: the id or alias of a template.'),
    v.minLength(1, 'is required: the id or alias of a template.'),
  ),
  variables: v.optional(
    v.pipe(
      v.unknown(),
      // A record takes an array's items as keys "0", "1"…: an array is refused, not read so.
      v.check((vars) => !Array.isArray(vars), 'must be an object of variable names to strings or numbers.'),
      v.record(
        v.string(),
        v.union([v.string(), v.number()], 'must be a string or a number.'),
        'must be an object of variable names to strings or numbers.',
      ),
      // A broadcast keeps them on its row.
      v.check(
        (vars) => Buffer.byteLength(JSON.stringify(vars)) <= MAX_TEMPLATE_VARIABLES_BYTES,
        `must be at most ${MAX_TEMPLATE_VARIABLES_BYTES} bytes of JSON together.`,
      ),
    ),
  ),
});

// Responses.

/** A template as lists show it (summary fields only). */
export const TemplateRow = v.object({
  id: Id,
  name: v.string(),
  alias: v.nullable(v.string()),
  status: v.picklist(['draft', 'published']),
  published_at: v.nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
});

/** GET /templates/{id}: the full Template (spec §2). */
export const TemplateObject = v.object({
  object: v.literal('template'),
  ...TemplateRow.entries,
  current_version_id: Id,
  from: v.nullable(v.string()),
  subject: v.nullable(v.string()),
  reply_to: v.nullable(v.array(v.string())),
  html: v.string(),
  text: v.nullable(v.string()),
  variables: v.nullable(
    v.array(
      v.object({
        id: Id,
        key: v.string(),
        type: v.picklist(VARIABLE_TYPES),
        fallback_value: v.unknown(),
        created_at: Timestamp,
        updated_at: Timestamp,
      }),
    ),
  ),
  has_unpublished_versions: v.boolean(),
});
