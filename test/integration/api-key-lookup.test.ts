import { describe, expect, it } from 'vitest';
import { createDeps } from '@mailstack/core/runtime/deps';
import { identifyKey, authenticateKey } from '@mailstack/core/domain/api-keys/authenticate-key';
import { revokeApiKey } from '@mailstack/core/domain/api-keys/revoke-api-key';
import { byOperator } from '@mailstack/core/domain/api-keys/key-audit';
import { hashKey } from '@mailstack/core/domain/api-keys/api-key';
import { getItem } from '@mailstack/core/table/ops';
import { keys } from '@mailstack/core/table/keys';
import { newTeam, testDeps } from '../support/local.ts';

/** One process of its own (a Lambda, the relay), with a clock the test moves and a 5 s lookup copy. */
const aProcess = () => {
  let now = Date.now();
  const deps = createDeps({ ...testDeps().config, LOOKUP_CACHE_MS: 5_000 }, { clock: { now: () => now } });
  const reads = () => deps.counters.ddbReads;
  return { deps, reads, advance: (ms: number) => (now += ms) };
};

describe('API key lookups: a copy per process, the table confirming each request', () => {
  it('answers a revoked key 401 at the next request of a process holding a fresh copy', async () => {
    const { team, key, secret } = await newTeam();
    const p = aProcess();
    await authenticateKey(p.deps, secret, '192.0.2.1');
    await authenticateKey(p.deps, secret, '192.0.2.1');
    await revokeApiKey(testDeps(), team.id, key.id, byOperator('test setup'));
    // The copy still says the key is good, so the caller is known at once; the count says no.
    const { counted } = await identifyKey(p.deps, secret, '192.0.2.1');
    await expect(counted).rejects.toMatchObject({ name: 'invalid_api_key' });
    // The copy went with that answer: the next request is refused before anything else.
    await expect(identifyKey(p.deps, secret, '192.0.2.1')).rejects.toMatchObject({ name: 'invalid_api_key' });
  });

  it('marks the key used once a minute, in the confirming request, and never after it is revoked', async () => {
    const { team, key, secret } = await newTeam();
    const p = aProcess();
    const lastUsed = async () =>
      (await getItem(testDeps(), keys.apiKey.item(hashKey(secret))))?.last_used_at as string | undefined;
    expect(await lastUsed()).toBeUndefined();
    await authenticateKey(p.deps, secret, '192.0.2.1');
    const first = await lastUsed();
    expect(first).toBeDefined();
    p.advance(30_000);
    await authenticateKey(p.deps, secret, '192.0.2.1');
    expect(await lastUsed()).toBe(first);
    p.advance(31_000);
    await authenticateKey(p.deps, secret, '192.0.2.1');
    const second = await lastUsed();
    expect(Date.parse(second!) - Date.parse(first!)).toBe(61_000);
    // A fresh copy whose "last used" is over a minute old: the confirming request is the write of
    // it, which a revocation made meanwhile refuses.
    p.advance(59_000);
    await authenticateKey(p.deps, secret, '192.0.2.1');
    await revokeApiKey(testDeps(), team.id, key.id, byOperator('test setup'));
    p.advance(2_000);
    await expect(authenticateKey(p.deps, secret, '192.0.2.1')).rejects.toMatchObject({ name: 'invalid_api_key' });
    expect(await lastUsed()).toBe(second);
    p.advance(61_000);
    await expect(authenticateKey(p.deps, secret, '192.0.2.1')).rejects.toMatchObject({ name: 'invalid_api_key' });
    expect(await lastUsed()).toBe(second);
  });

  it('reads the key once per request from a fresh copy, beside the count, and not twice on a miss', async () => {
    const { secret } = await newTeam();
    const p = aProcess();
    await authenticateKey(p.deps, secret, '192.0.2.1');
    const before = p.reads();
    // A fresh copy: its team comes from the copy, the key's row is read once beside the count.
    await authenticateKey(p.deps, secret, '192.0.2.1');
    expect(p.reads() - before).toBe(1);
    // Past the copies' life the key's row and its team's are read once each: that read is the confirmation.
    p.advance(5_001);
    const missed = p.reads();
    await authenticateKey(p.deps, secret, '192.0.2.1');
    expect(p.reads() - missed).toBe(2);
  });
});
