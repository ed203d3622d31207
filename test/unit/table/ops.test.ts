import { describe, expect, it } from 'vitest';
import { Expression } from '@mailstack/core/table/ops';

describe('the table module compiles conditions and changes', () => {
  it('names every attribute and value, and groups only nested terms (DynamoDB refuses redundant parentheses)', () => {
    const x = new Expression();
    const condition = x.condition({
      or: [
        { attr: 'status', in: ['queued', 'scheduled'] },
        {
          and: [
            { attr: 'status', eq: 'sending' },
            { attr: 'claimed_until', lt: 5 },
          ],
        },
      ],
    });
    expect(condition).toBe('#a0 IN (:v0, :v1) OR (#a0 = :v2 AND #a1 < :v3)');
    expect(x.params()).toEqual({
      ExpressionAttributeNames: { '#a0': 'status', '#a1': 'claimed_until' },
      ExpressionAttributeValues: { ':v0': 'queued', ':v1': 'scheduled', ':v2': 'sending', ':v3': 5 },
    });
  });

  it('writes a lone group without parentheses and item existence on the partition key', () => {
    const x = new Expression();
    expect(
      x.condition({
        and: [
          {
            or: [
              { attr: 'n', absent: true },
              { attr: 'n', lt: 10 },
            ],
          },
        ],
      }),
    ).toBe('attribute_not_exists(#a0) OR #a0 < :v0');
    expect(new Expression().condition({ exists: false })).toBe('attribute_not_exists(#a0)');
  });

  it('builds one update expression from set, add, remove and the TTL attribute', () => {
    const x = new Expression();
    expect(x.update({ set: { status: 'queued' }, add: { attempts: 1 }, remove: ['gsi3pk'], expiresAt: 99 })).toBe(
      'SET #a0 = :v0, #a1 = :v1 ADD #a2 :v2 REMOVE #a3',
    );
    expect(x.params().ExpressionAttributeNames).toEqual({
      '#a0': 'status',
      '#a1': 'ttl',
      '#a2': 'attempts',
      '#a3': 'gsi3pk',
    });
  });

  it('reads a dotted name as a document path into a map, one alias per segment', () => {
    const x = new Expression();
    expect(x.update({ set: { 'leases.h1': 5 }, add: { n: 1 } })).toBe('SET #a0.#a1 = :v0 ADD #a2 :v1');
    expect(
      x.condition({
        and: [
          { attr: 'leases.h1', present: true },
          { attr: 'n', gt: 0 },
        ],
      }),
    ).toBe('attribute_exists(#a0.#a1) AND #a2 > :v2');
    expect(x.params().ExpressionAttributeNames).toEqual({ '#a0': 'leases', '#a1': 'h1', '#a2': 'n' });
  });

  it('leaves the names and values out entirely when an expression has none', () => {
    expect(new Expression().params()).toEqual({});
  });
});
