import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { parseKeyring, type Keyring, type LinkKeys } from '../../ports/link-keys.ts';

/** How long a read keyring is trusted before it is read again (a rotation reaches every function within this). */
export const KEYRING_CACHE_MS = 5 * 60_000;

/**
 * The link-signing keyring read from Secrets Manager at run time (never from the environment),
 * once per cold start and again every five minutes; a failed read keeps the last good keyring.
 */
export const secretsManagerLinkKeys = (
  client: SecretsManagerClient,
  secretId: string,
  now: () => number = Date.now,
): LinkKeys => {
  let cached: { keyring: Keyring; at: number } | undefined;
  let inflight: Promise<Keyring> | undefined;
  const load = async (): Promise<Keyring> => {
    if (cached && now() - cached.at < KEYRING_CACHE_MS) return cached.keyring;
    inflight ??= client
      .send(new GetSecretValueCommand({ SecretId: secretId }))
      .then((out) => {
        const keyring = parseKeyring(out.SecretString ?? '');
        cached = { keyring, at: now() };
        return keyring;
      })
      .catch((error) => {
        if (cached) return cached.keyring;
        throw new Error(`could not read the link-signing secret ${secretId}: ${(error as Error).message}`);
      })
      .finally(() => {
        inflight = undefined;
      });
    return inflight;
  };
  return {
    current: async () => {
      const keyring = await load();
      return { id: keyring.current, secret: keyring.keys[keyring.current]! };
    },
    byId: async (id) => (await load()).keys[id],
  };
};
