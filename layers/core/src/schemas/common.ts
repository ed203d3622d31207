import * as v from 'valibot';


/** A UUID (any version), as every resource id is. */
export const Uuid = v.pipe(v.string(), v.uuid('must be a UUID.'));

/** A path id that must be a UUID; anything else cannot name a resource of ours. */
export const IdParams = v.object({ id: v.pipe(v.string(), v.minLength(1, 'is required.')) });

/** Standard list query (spec §4 conventions): limit 1–100 (default 20), after or before (an id from the list). */
export const Pagination = v.pipe(
  v.object({
    limit: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^\d+$/, 'must be an integer from 1 to 100.'),
        v.transform(Number),
        v.minValue(1, 'must be an integer from 1 to 100.'),
        v.maxValue(100, 'must be an integer from 1 to 100.'),
      ),
      '20',
    ),
    after: v.optional(v.pipe(v.string(), v.uuid('must be the id of an item from this list.'))),
    before: v.optional(v.pipe(v.string(), v.uuid('must be the id of an item from this list.'))),
  }),
  v.check((q) => !(q.after && q.before), 'Give `after` or `before`, not both.'),
);

/** A parsed list query. */
export type Pagination = v.InferOutput<typeof Pagination>;

/** The list envelope of every list endpoint. */
export const listOf = <T>(data: T[], hasMore: boolean) => ({ object: 'list' as const, has_more: hasMore, data });
