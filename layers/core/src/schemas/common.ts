import * as v from 'valibot';
import { MAX_REPLY_TO, MAX_STORED_BODY_BYTES } from '../limits.ts';

/** A path id that must be a UUID; anything else cannot name a resource of ours. */
export const IdParams = v.object({ id: v.pipe(v.string(), v.minLength(1, 'is required.')) });

/** A query value the SDKs send as a comma-joined list (an array joined, or a parameter repeated), as its items. */
export const commaSeparated = v.transform((s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean),
);

const LIMIT = v.pipe(
  v.string(),
  v.description('How many items a page holds: 1 to 100.'),
  v.regex(/^\d+$/, 'must be an integer from 1 to 100.'),
  v.transform(Number),
  v.minValue(1, 'must be an integer from 1 to 100.'),
  v.maxValue(100, 'must be an integer from 1 to 100.'),
);

/** A list's `limit` query: 1 to 100, 20 when absent. */
export const PageLimit = v.optional(LIMIT, '20');

const PAGE_ENTRIES = {
  limit: PageLimit,
  after: v.optional(v.pipe(v.string(), v.uuid('must be the id of an item from this list.'))),
  before: v.optional(v.pipe(v.string(), v.uuid('must be the id of an item from this list.'))),
};

/** A list query with filters of its own beside `limit`, `after` and `before`. */
export const paginatedWith = <E extends v.ObjectEntries>(filters: E) =>
  v.pipe(
    v.object({ ...PAGE_ENTRIES, ...filters }),
    v.check((q) => !(q.after && q.before), 'Give `after` or `before`, not both.'),
  );

/** Standard list query (spec §4 conventions): limit 1–100 (default 20), after or before (an id from the list). */
export const Pagination = paginatedWith({});

/**
 * The query of a list the spec answers whole (`has_more: false`): a page only when `limit`,
 * `after` or `before` asks for one (the SDK's pagination options), else every item.
 */
export const WholeListQuery = v.pipe(
  v.object({ ...PAGE_ENTRIES, limit: v.optional(LIMIT) }),
  v.check((q) => !(q.after && q.before), 'Give `after` or `before`, not both.'),
);

/** A parsed list query. */
export type Pagination = v.InferOutput<typeof Pagination>;

/** The list envelope of every list endpoint. */
export const listOf = <T>(data: T[], hasMore: boolean) => ({ object: 'list' as const, has_more: hasMore, data });

// Response schemas: what the routes answer, for GET /openapi.json and the contract tests' drift check.
// Objects are open (`v.object`): clients must ignore fields they do not know.

/** A resource id in a response. */
export const Id = v.pipe(v.string(), v.uuid());
/** A timestamp in a response (ISO 8601, UTC). */
export const Timestamp = v.pipe(v.string(), v.isoTimestamp());

/** `{object, id}`: what most writes answer. */
export const ObjectRef = <const O extends string>(object: O) => v.object({ object: v.literal(object), id: Id });
/** `{object, id, deleted: true}`: what deletes answer. */
export const Deleted = <const O extends string>(object: O) =>
  v.object({ object: v.literal(object), id: Id, deleted: v.literal(true) });
/** The list envelope. */
export const ListOf = <S extends v.GenericSchema>(item: S) =>
  v.object({ object: v.literal('list'), has_more: v.boolean(), data: v.array(item) });
/** An HTML page (hosted preference and unsubscribe pages). */
export const HtmlPage = v.pipe(v.string(), v.description('An HTML page.'));

/** A template's or a broadcast's `html` or `text`, kept whole on its row: at most MAX_STORED_BODY_BYTES. */
export const StoredBody = v.maxBytes<string, number, string>(
  MAX_STORED_BODY_BYTES,
  `must be at most ${MAX_STORED_BODY_BYTES} bytes (UTF-8); it is kept whole with the rest of its record.`,
);

/** `reply_to`: one address or a list of at most MAX_REPLY_TO (each is checked as a mailbox where it is used). */
export const ReplyToList = v.union(
  [v.string(), v.pipe(v.array(v.string()), v.maxLength(MAX_REPLY_TO, `may hold at most ${MAX_REPLY_TO} addresses.`))],
  `must be an address or an array of at most ${MAX_REPLY_TO} addresses.`,
);
