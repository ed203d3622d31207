/**
 * The keys that sign unsubscribe and preference links. Each token names its key id, so a new
 * key can become current while links signed with older ones keep working.
 */
export interface LinkKeys {
  /** The key new links are signed with. */
  current(): Promise<{ readonly id: string; readonly secret: string }>;
  /** A key by id, for checking a link; undefined when no such key exists (any more). */
  byId(id: string): Promise<string | undefined>;
}

/** A keyring: `{"current": "<id>", "<id>": "<secret>", ...}`, as stored in the secret. */
export interface Keyring {
  readonly current: string;
  readonly keys: Readonly<Record<string, string>>;
}

/**
 * Reads a keyring from its stored text. A plain string (no JSON object) is one key with id `k1`.
 * Fails with what is wrong when the current key id names no key.
 */
export const parseKeyring = (text: string): Keyring => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { current: 'k1', keys: { k1: text } };
  const { current, ...rest } = parsed as Record<string, unknown>;
  const keys = Object.fromEntries(
    Object.entries(rest).filter(([, v]) => typeof v === 'string' && v.length > 0),
  ) as Record<string, string>;
  const id = typeof current === 'string' ? current : 'k1';
  if (!keys[id])
    throw new Error(
      `the link-signing keyring names current key "${id}", but holds only ${Object.keys(keys).join(', ') || 'no keys'}: add "${id}": "<secret>" or point "current" at an existing key`,
    );
  return { current: id, keys };
};

/** Link keys from a keyring already in hand (locally: TOKEN_SECRET). */
export const staticLinkKeys = (keyring: Keyring): LinkKeys => ({
  current: async () => ({ id: keyring.current, secret: keyring.keys[keyring.current]! }),
  byId: async (id) => keyring.keys[id],
});

/** No link key configured: signing or checking a link fails with what to set (there is no default key). */
export const missingLinkKeys = (): LinkKeys => {
  const fail = async (): Promise<never> => {
    throw new Error(
      'no link-signing key: set LINK_SECRET_ARN (the stack does, for the functions whose manifest entry needs linkSecret) or TOKEN_SECRET (the local host generates one per data directory)',
    );
  };
  return { current: fail, byId: fail };
};
