import { describe, expect, it } from 'vitest';
import { createDeps } from '@mailstack/core/runtime/deps';
import { readConfig } from '@mailstack/core/runtime/config';
import { signLink, verifyLink } from '@mailstack/core/domain/audience/tokens';
import { parseKeyring, staticLinkKeys } from '@mailstack/core/ports/link-keys';
import { secretsManagerLinkKeys, KEYRING_CACHE_MS } from '@mailstack/core/adapters/aws/secrets-manager-keys';

/** Deps whose link keys are this keyring; no table is touched by signing or checking. */
const withKeyring = (text: string) =>
  createDeps(readConfig({ TABLE_NAME: 'unused' }), { linkKeys: staticLinkKeys(parseKeyring(text)) });

describe('link tokens and their keys', () => {
  it('name the key that signed them, and keep verifying after a new key becomes current', async () => {
    const before = withKeyring(JSON.stringify({ current: 'k1', k1: 'first-secret' }));
    const token = await signLink(before, { kind: 'u', teamId: 't1', email: 'a@example.com', topicId: 'topic' });
    expect(token.split('.')[0]).toBe('k1');
    const rotated = withKeyring(JSON.stringify({ current: 'k2', k1: 'first-secret', k2: 'second-secret' }));
    expect(await verifyLink(rotated, token, 'u')).toEqual({
      kind: 'u',
      teamId: 't1',
      email: 'a@example.com',
      topicId: 'topic',
      contactId: undefined,
    });
    const fresh = await signLink(rotated, { kind: 'p', teamId: 't1', contactId: 'c1' });
    expect(fresh.split('.')[0]).toBe('k2');
    expect(await verifyLink(before, fresh, 'p')).toBeUndefined();
  });

  it('refuse a token whose key was removed, whose key id was swapped, or whose claims were changed', async () => {
    const deps = withKeyring(JSON.stringify({ current: 'k2', k1: 'one', k2: 'two' }));
    const token = await signLink(deps, { kind: 'u', teamId: 't1', email: 'a@example.com' });
    const [, payload, mac] = token.split('.');
    expect(await verifyLink(withKeyring(JSON.stringify({ current: 'k3', k3: 'three' })), token, 'u')).toBeUndefined();
    expect(await verifyLink(deps, `k1.${payload}.${mac}`, 'u')).toBeUndefined();
    const forged = Buffer.from(JSON.stringify({ k: 'u', t: 't2', e: 'a@example.com' })).toString('base64url');
    expect(await verifyLink(deps, `k2.${forged}.${mac}`, 'u')).toBeUndefined();
    expect(await verifyLink(deps, token, 'p')).toBeUndefined();
  });

  it('read a plain secret as one key, and say what is wrong with a keyring whose current key is missing', () => {
    expect(parseKeyring('just-a-secret')).toEqual({ current: 'k1', keys: { k1: 'just-a-secret' } });
    expect(() => parseKeyring(JSON.stringify({ current: 'k2', k1: 'x' }))).toThrow(
      /names current key "k2", but holds only k1/,
    );
  });

  it('are read from Secrets Manager once, cached, re-read after the cache time, and kept when a re-read fails', async () => {
    let reads = 0;
    let fail = false;
    let value = JSON.stringify({ current: 'k1', k1: 'one' });
    const client = {
      send: async () => {
        reads++;
        if (fail) throw new Error('throttled');
        return { SecretString: value };
      },
    } as any;
    let now = 0;
    const keys = secretsManagerLinkKeys(client, 'arn:secret', () => now);
    await Promise.all([keys.current(), keys.current(), keys.byId('k1')]);
    expect(reads).toBe(1);
    value = JSON.stringify({ current: 'k2', k1: 'one', k2: 'two' });
    now = KEYRING_CACHE_MS - 1;
    expect((await keys.current()).id).toBe('k1');
    now = KEYRING_CACHE_MS + 1;
    expect((await keys.current()).id).toBe('k2');
    fail = true;
    now = 3 * KEYRING_CACHE_MS;
    expect(await keys.byId('k2')).toBe('two');
    expect(reads).toBe(3);
  });
});
