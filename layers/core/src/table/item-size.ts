/**
 * The size DynamoDB bills an item at: each attribute's name in UTF-8 bytes plus its value
 * (strings in UTF-8 bytes, numbers about one byte per two digits plus one, binary its bytes,
 * booleans and null one byte, lists and maps 3 bytes plus their elements, a byte per element).
 */
export const itemSize = (item: Record<string, unknown>): number =>
  Object.entries(item).reduce((n, [name, value]) => n + Buffer.byteLength(name) + valueSize(value), 0);

const valueSize = (value: unknown): number => {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number' || typeof value === 'bigint')
    return Math.ceil(String(value).replace(/^-|\.|e.*$/g, '').length / 2) + 1;
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) return [...value].reduce((n: number, v) => n + valueSize(v), 0);
  if (Array.isArray(value)) return 3 + value.reduce((n: number, v) => n + 1 + valueSize(v), 0);
  if (typeof value === 'object')
    return (
      3 +
      Object.entries(value as Record<string, unknown>).reduce(
        (n, [k, v]) => n + 1 + Buffer.byteLength(k) + valueSize(v),
        0,
      )
    );
  return 0;
};
