/**
 * One page of a list, the result of every use case that lists: its items in the list's order and
 * whether more follow in the direction read. The HTTP answer of a list is `listOf(items, hasMore)`.
 */
export type Page<T> = { readonly items: T[]; readonly hasMore: boolean };

/** Which page of a list to read: the spec's `limit`, `after` and `before` (a parsed `Pagination` is one). */
export interface PageRequest {
  readonly limit: number;
  readonly after?: string | undefined;
  readonly before?: string | undefined;
}

/**
 * One page of a list already read whole (a contact's segments or topics: bounded by what the
 * team declared), with the spec's cursors over ids in the order given: `after` gives the items
 * after that id, `before` those before it; a cursor that names no item of the list gives none.
 */
export const pageOf = <T extends { readonly id: string }>(items: readonly T[], page: PageRequest): Page<T> => {
  if (page.after !== undefined || page.before !== undefined) {
    const at = items.findIndex((i) => i.id === (page.after ?? page.before));
    if (at < 0) return { items: [], hasMore: false };
    if (page.after !== undefined) {
      const rest = items.slice(at + 1);
      return { items: rest.slice(0, page.limit), hasMore: rest.length > page.limit };
    }
    const before = items.slice(0, at);
    return { items: before.slice(Math.max(0, before.length - page.limit)), hasMore: before.length > page.limit };
  }
  return { items: items.slice(0, page.limit), hasMore: items.length > page.limit };
};

/**
 * A list answered whole (`has_more: false`) unless the query asks for a page: a contact's topics,
 * an inbox's labels (bounded lists the reference answers without paging).
 */
export const wholeOrPage = <T extends { readonly id: string }>(
  items: readonly T[],
  query: {
    readonly limit?: number | undefined;
    readonly after?: string | undefined;
    readonly before?: string | undefined;
  },
): Page<T> =>
  query.limit === undefined && query.after === undefined && query.before === undefined
    ? { items: [...items], hasMore: false }
    : pageOf(items, { ...query, limit: query.limit ?? 20 });
