import { describe, expect, it } from 'vitest';
import { keys, shardOf, type IndexPartition } from '@mailstack/core/table/keys';
import { TABLE } from '@mailstack/core/table/definition';

const T = '01a203f1-63ab-7176-b208-401076a2e027';
const U = '01a203f1-7777-7176-b208-401076a2e027';
const M = '01a203f1-8888-7176-b208-401076a2e027';
const ID = '01a203f1-b5a8-722d-8462-e405b6a226ae';
const AT = '2026-11-25T10:00:00.000Z';

/**
 * Every named access pattern over a GSI beside the writer of the attributes it reads: the query
 * reads the index the rows are written to, in the partition they are written to. A query that
 * picked another index, or a writer that moved its rows, fails here.
 */
const PAIRS: { pattern: string; written: Record<string, unknown>; read: IndexPartition }[] = [
  { pattern: 'all teams', written: keys.team.listing(T), read: keys.team.listPartition() },
  { pattern: 'keys of a team', written: keys.apiKey.listing(T, ID), read: keys.apiKey.listPartition(T) },
  {
    pattern: 'emails of a team (its shard)',
    written: keys.email.listing(T, ID),
    read: keys.email.listPartition(T, shardOf(ID, keys.email.listShards)),
  },
  {
    pattern: 'emails due at the provider',
    written: keys.email.sendDue(ID, AT),
    read: keys.email.sendDuePartition(shardOf(ID, keys.email.dueShards)),
  },
  {
    pattern: 'parked emails',
    written: keys.email.parkedDue(ID, AT),
    read: keys.email.parkedDuePartition(shardOf(ID, keys.email.dueShards)),
  },
  { pattern: 'held emails of a team', written: keys.email.held(T, ID), read: keys.email.heldPartition(T) },
  {
    pattern: 'events not yet fanned out',
    written: keys.event.undispatched(T, ID, AT),
    read: keys.event.undispatchedPartition(shardOf(ID, keys.event.dueShards)),
  },
  {
    pattern: 'suppressions of a team',
    written: keys.suppression.listing(T, ID),
    read: keys.suppression.listPartition(T),
  },
  {
    pattern: 'domain names the teams hold',
    written: keys.domain.held('example.com'),
    read: keys.domain.heldPartition(),
  },
  { pattern: 'teams of a user', written: keys.member.listing(U, T), read: keys.member.teamsPartition(U) },
  {
    pattern: 'threads of a mailbox by folder',
    written: keys.mailbox.threadListing(T, M, 'inbox', AT, ID),
    read: keys.mailbox.threadListPartition(T, M, 'inbox'),
  },
  {
    pattern: 'keys of a mailbox',
    written: keys.mailbox.keyListing(T, M, ID),
    read: keys.mailbox.keyListPartition(T, M),
  },
  {
    pattern: 'messages of a mailbox by folder',
    written: keys.message.folderListing(T, M, 'inbox', ID),
    read: keys.message.folderPartition(T, M, 'inbox'),
  },
  {
    pattern: 'received messages of a team',
    written: keys.message.receivedListing(T, ID),
    read: keys.message.receivedPartition(T),
  },
  {
    pattern: 'messages of a thread',
    written: keys.message.threadListing(T, M, ID),
    read: keys.message.threadPartition(T, M),
  },
];

describe('access patterns over the indexes', () => {
  it.each(PAIRS)('$pattern: read from the index and partition its rows are written to', ({ written, read }) => {
    expect(TABLE.indexes.map((i) => i.name)).toContain(read.index);
    const index = TABLE.indexes.find((i) => i.name === read.index)!;
    expect(written[index.partitionKey]).toBe(read.pk);
    expect(written[index.sortKey]).toEqual(expect.any(String));
  });

  it('writes each pattern to one index only (no row lands in two partitions of one pattern)', () => {
    for (const { written, read } of PAIRS) {
      const others = TABLE.indexes.filter((i) => i.name !== read.index).map((i) => i.partitionKey);
      for (const attr of others) expect(written[attr], attr).not.toBe(read.pk);
    }
  });
});

describe('the attributes a change removes to take a row off a pattern', () => {
  it.each([
    { list: 'send due', attributes: keys.email.dueAttributes, written: keys.email.sendDue(ID, AT) },
    { list: 'parked due', attributes: keys.email.dueAttributes, written: keys.email.parkedDue(ID, AT) },
    { list: 'held for review', attributes: keys.email.heldAttributes, written: keys.email.held(T, ID) },
    {
      list: 'waiting (due and held)',
      attributes: keys.email.waitingAttributes,
      written: { ...keys.email.held(T, ID), ...keys.email.sendDue(ID, AT) },
    },
    {
      list: 'not yet fanned out',
      attributes: keys.event.undispatchedAttributes,
      written: keys.event.undispatched(T, ID, AT),
    },
  ])('$list: exactly the attributes its builder writes', ({ attributes, written }) => {
    expect([...attributes].sort()).toEqual(Object.keys(written).sort());
  });
});

describe('every message of a thread, read consistently from the base table', () => {
  it("puts a message's entry in the partition and under the prefix its thread's read queries, apart from the mailbox's own rows", () => {
    // Prepare
    const thread = '01a203f1-9999-7176-b208-401076a2e027';

    // Act
    const entry = keys.mailbox.threadMessage(T, M, thread, ID);

    // Assess
    expect(entry.pk).toBe(keys.mailbox.threadMessagePartition(T, M, thread));
    expect(entry.sk.startsWith(keys.mailbox.threadMessagePrefix)).toBe(true);
    expect(entry.sk).toContain(ID);
    expect(entry.pk).not.toBe(keys.mailbox.threadPartition(T, M));
    expect(entry.pk).not.toBe(keys.mailbox.threadMessagePartition(T, M, ID));
  });
});

describe('the email shards, raised from 4', () => {
  it('reads every shard an entry written under 4 shards sits in, and spreads new entries over all of them', () => {
    // Prepare: ids ending in every 4-hex value a shard can take
    const ids = Array.from(
      { length: 64 },
      (_, n) => `01a203f1-b5a8-722d-8462-e405b6a2${n.toString(16).padStart(4, '0')}`,
    );

    // Act
    const old = new Set(ids.map((id) => shardOf(id, 4)));
    const list = new Set(ids.map((id) => shardOf(id, keys.email.listShards)));
    const due = new Set(ids.map((id) => shardOf(id, keys.email.dueShards)));

    // Assess: the readers query shards 0..n-1, so the old entries are still found
    for (const s of old) expect(s).toBeLessThan(Math.min(keys.email.listShards, keys.email.dueShards));
    expect(list.size).toBe(keys.email.listShards);
    expect(due.size).toBe(keys.email.dueShards);
    expect(keys.email.listShards).toBeGreaterThanOrEqual(32);
    expect(keys.email.dueShards).toBeGreaterThanOrEqual(32);
  });
});
