import { describe, expect, it } from 'vitest';
import {
  billConditionCheck,
  billGet,
  billQuery,
  billWrites,
  readUnits,
  writeUnits,
} from '@mailstack/core/table/billing';
import { itemSize } from '@mailstack/core/table/item-size';

/** An item of exactly `bytes` billed bytes (pk `P`, the rest in one string attribute `b`). */
const sized = (bytes: number, extra: Record<string, string> = {}) => {
  const base = { pk: 'P', ...extra };
  const item = { ...base, b: 'x'.repeat(bytes - itemSize(base) - 1) };
  expect(itemSize(item)).toBe(bytes);
  return item;
};

describe('capacity units as AWS bills them', () => {
  it('bills a write one unit per started KB, at least one', () => {
    expect([writeUnits(0), writeUnits(1), writeUnits(1024), writeUnits(1025), writeUnits(3000)]).toEqual([
      1, 1, 1, 2, 3,
    ]);
  });

  it('bills an item written in a transaction two units per KB (DynamoDB Local reports one)', () => {
    expect(writeUnits(1024, true)).toBe(2);
    expect(writeUnits(1025, true)).toBe(4);
    const item = sized(1500);
    expect(billWrites([{ pk: 'P', before: undefined, after: item }], { transactional: true })).toEqual([
      { partition: 'P', read: 0, write: 4 },
    ]);
    expect(billWrites([{ pk: 'P', before: undefined, after: item }])).toEqual([{ partition: 'P', read: 0, write: 2 }]);
  });

  it('bills a write at the larger of the item before and after it, and a delete at the item deleted', () => {
    const big = sized(2100);
    const small = sized(100);
    expect(billWrites([{ pk: 'P', before: big, after: small }])[0]!.write).toBe(3);
    expect(billWrites([{ pk: 'P', before: small, after: big }])[0]!.write).toBe(3);
    expect(billWrites([{ pk: 'P', before: big, after: undefined }])[0]!.write).toBe(3);
    expect(billWrites([{ pk: 'P', before: undefined, after: undefined }])[0]!.write).toBe(1);
  });

  it('writes each index holding the item in its own partition, at the standard rate', () => {
    const before = sized(1100, { gsi1pk: 'A', gsi3pk: 'DUE' });
    const after = sized(900, { gsi1pk: 'A', gsi2pk: 'HELD' });
    expect(billWrites([{ pk: 'P', before, after }], { transactional: true })).toEqual([
      { partition: 'P', read: 0, write: 4 },
      { partition: 'gsi1:A', read: 0, write: 2 },
      { partition: 'gsi2:HELD', read: 0, write: 1 },
      { partition: 'gsi3:DUE', read: 0, write: 2 },
    ]);
  });

  it.each([
    { bytes: 4096, consistent: true, units: 1 },
    { bytes: 4097, consistent: true, units: 2 },
    { bytes: 4097, consistent: false, units: 1 },
    { bytes: 100, consistent: false, units: 0.5 },
  ])('bills a read of $bytes bytes (consistent: $consistent) $units units', ({ bytes, consistent, units }) => {
    expect(readUnits(bytes, { consistent })).toBe(units);
    expect(billGet('P', sized(bytes), consistent)).toEqual({ partition: 'P', read: units, write: 0 });
  });

  it('bills a missing item as one read, and a transactional read (condition check) twice', () => {
    expect(billGet('P', undefined, true).read).toBe(1);
    expect(billGet('P', undefined, false).read).toBe(0.5);
    expect(billConditionCheck('P', sized(5000)).read).toBe(4);
  });

  it('sums a query page\u2019s items before rounding per 4 KB, and an empty page is one read', () => {
    const items = [sized(1500), sized(1500), sized(1500)];
    expect(billQuery('P', items, true).read).toBe(2);
    expect(billQuery('gsi1:A', items, false)).toEqual({ partition: 'gsi1:A', read: 1, write: 0 });
    expect(billQuery('P', [], true).read).toBe(1);
  });
});
