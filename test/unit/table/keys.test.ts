import { describe, expect, it } from 'vitest';
import { hashShard, keys, shardOf } from '@mailstack/core/table/keys';
import { TABLE } from '@mailstack/core/table/definition';

const T = '01a203f1-63ab-7176-b208-401076a2e027';
const ID = '01a203f1-b5a8-722d-8462-e405b6a226ae';

describe('the key design', () => {
  it.each([
    { case: 'team', key: keys.team.item(T), expected: { pk: `TEAM#${T}`, sk: 'TEAM' } },
    { case: 'api key by hash', key: keys.apiKey.item('abc'), expected: { pk: 'APIKEY#abc', sk: 'APIKEY' } },
    { case: 'domain', key: keys.domain.item(T, ID), expected: { pk: `TEAM#${T}`, sk: `DOMAIN#${ID}` } },
    {
      case: 'domain name guard (lower-cased)',
      key: keys.domain.nameGuard(T, 'Example.COM'),
      expected: { pk: `TEAM#${T}`, sk: 'DOMAINNAME#example.com' },
    },
    {
      case: 'request window',
      key: keys.rate.window(T, 29000000, 0),
      expected: { pk: `TEAM#${T}#RATE#29000000#0`, sk: 'RATE' },
    },
    {
      case: 'failed auth window',
      key: keys.rate.authFailures('127.0.0.1', 1),
      expected: { pk: 'AUTHFAIL#127.0.0.1#1', sk: 'AUTHFAIL' },
    },
    {
      case: 'usage day',
      key: keys.usage.day(T, '2026-11-22', 3),
      expected: { pk: `TEAM#${T}#USAGE#2026-11-22#3`, sk: 'USAGE' },
    },
    { case: 'email', key: keys.email.item(T, ID), expected: { pk: `TEAM#${T}#EMAIL#${ID}`, sk: 'EMAIL' } },
    {
      case: 'suppression by address (lower-cased)',
      key: keys.suppression.byAddress(T, 'A@B.com'),
      expected: { pk: `TEAM#${T}#SUPP`, sk: 'ADDR#a@b.com' },
    },
    {
      case: 'contact email guard (lower-cased)',
      key: keys.contact.emailGuard(T, 'Jane@X.io'),
      expected: { pk: `TEAM#${T}#CONTACTS`, sk: 'EMAIL#jane@x.io' },
    },
  ])('builds the $case key', ({ key, expected }) => {
    expect(key).toEqual(expected);
  });

  it("puts the team id first in every tenant key, so another team's lookup can only miss", () => {
    for (const key of [
      keys.team.item(T),
      keys.domain.item(T, ID),
      keys.email.item(T, ID),
      keys.contact.item(T, ID),
      keys.topic.item(T, ID),
      keys.event.item(T, ID),
      keys.suppression.byAddress(T, 'a@b.c'),
    ]) {
      expect(key.pk.startsWith(`TEAM#${T}`)).toBe(true);
    }
  });

  it("spreads a team's emails and events over shards by id", () => {
    const ids = Array.from(
      { length: 64 },
      (_, n) => `01a203f1-b5a8-722d-8462-e405b6a2${n.toString(16).padStart(4, '0')}`,
    );
    expect(new Set(ids.map((id) => shardOf(id, 4))).size).toBe(4);
    expect(new Set(ids.map((id) => keys.event.item(T, id).pk)).size).toBe(keys.event.shards);
    expect(keys.event.shards).toBe(32);
  });

  it('declares the generic key attributes of every index', () => {
    expect(TABLE.indexes.map((i) => [i.name, i.partitionKey, i.sortKey])).toEqual([
      ['gsi1', 'gsi1pk', 'gsi1sk'],
      ['gsi2', 'gsi2pk', 'gsi2sk'],
      ['gsi3', 'gsi3pk', 'gsi3sk'],
    ]);
  });
});

describe('email metrics hour items', () => {
  it('read back the hour and owner they were written for', () => {
    for (const owner of [
      { kind: 'domain', id: ID },
      { kind: 'domain', id: null },
      { kind: 'broadcast', id: ID },
    ] as const) {
      const key = keys.metrics.hour(T, '2026-11-25T10', owner, ID);
      expect(key.pk).toBe(keys.metrics.month(T, '2026-11', shardOf(ID, keys.metrics.monthShards)));
      expect(key.pk).toMatch(new RegExp(`^TEAM#${T}#METRICS#2026-11#([0-9]|1[0-5])$`));
      expect(keys.metrics.hourOf(key.sk)).toEqual({ hour: '2026-11-25T10', owner });
    }
    expect(keys.metrics.hourOf('HOUR#2026-11-25T10#X#a#0')).toBeUndefined();
  });

  it("spread one owner's hour over the month's partitions by email id, one sort key in each", () => {
    const owner = { kind: 'domain', id: ID } as const;
    const written = Array.from({ length: 64 }, (_, n) =>
      keys.metrics.hour(
        T,
        '2026-11-25T10',
        owner,
        `01a203f1-b5a8-722d-8462-e405b6a2${n.toString(16).padStart(4, '0')}`,
      ),
    );
    const months = Array.from({ length: keys.metrics.monthShards }, (_, s) => keys.metrics.month(T, '2026-11', s));
    expect(new Set(written.map((k) => k.pk))).toEqual(new Set(months));
    expect(new Set(written.map((k) => k.sk)).size).toBe(1);
  });
});

describe("a team's idempotency records", () => {
  it('keep one key in one partition, and spread many keys over the shards', () => {
    expect(keys.idempotency.partition(T, 'order-1')).toBe(keys.idempotency.partition(T, 'order-1'));
    expect(keys.idempotency.partition(T, 'order-1')).toMatch(new RegExp(`^TEAM#${T}#IDEMPOTENCY#([0-9]|1[0-5])$`));
    const partitions = new Set(Array.from({ length: 400 }, (_, n) => keys.idempotency.partition(T, `order-${n}`)));
    expect(partitions.size).toBe(16);
    expect(hashShard('', 16)).toBe(hashShard('', 16));
  });
});
