/** Returned by a rewrite's `replace` to keep a value and go on into it. */
export const KEEP: unique symbol = Symbol('keep');

/**
 * A JSON value rewritten: `replace` sees every value with the field it stands in (an array's items
 * the array's field) and answers its replacement, or KEEP to keep it and go into its items and
 * fields. Erasing an address and redacting a secret are both this walk.
 */
export const rewriteJson = (
  value: unknown,
  replace: (value: unknown, field: string | undefined) => unknown,
): unknown => {
  const walk = (v: unknown, field: string | undefined): unknown => {
    const out = replace(v, field);
    if (out !== KEEP) return out;
    if (Array.isArray(v)) return v.map((item) => walk(item, field));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    return v;
  };
  return walk(value, undefined);
};
