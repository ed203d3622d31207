/** DKIM and verification state of a sending domain, as the provider reports it. */
export interface IdentityStatus {
  /** DKIM CNAME tokens: each publishes `<token>._domainkey.<domain>`. */
  readonly dkimTokens: readonly string[];
  /** True once the provider has verified the domain for sending. */
  readonly verified: boolean;
  /** True when the provider has definitively failed verification. */
  readonly failed: boolean;
  /** True when this deployment's stack created the identity (its stack tag names this stack). */
  readonly ours: boolean;
}

/**
 * The identity exists in the provider's account but this deployment's stack did not create it
 * (the operator's own domain, another application's, another stack's in the same account): it is
 * never taken over silently.
 */
export class IdentityNotOursError extends Error {
  constructor(readonly domain: string) {
    super(`The provider identity ${domain} exists in the account and was not created by this deployment.`);
    this.name = 'IdentityNotOursError';
  }
}

/** The provider's sending identities (SES email identities on AWS). */
export interface IdentityProvider {
  /**
   * Registers the domain in its delivery region, with its custom MAIL FROM (return path), tagged
   * with this deployment's stack. An identity this stack made before is answered as it is; one
   * it did not make throws IdentityNotOursError.
   */
  create(input: { domain: string; region: string; mailFromDomain: string }): Promise<IdentityStatus>;
  /** Reads the current status. */
  get(input: { domain: string; region: string }): Promise<IdentityStatus>;
  /** Reads the current status; undefined when the account has no such identity. */
  find(input: { domain: string; region: string }): Promise<IdentityStatus | undefined>;
  /**
   * Removes the identity only when this deployment's stack created it; an identity of anyone
   * else, or a missing one, is left alone (not an error).
   */
  remove(input: { domain: string; region: string }): Promise<void>;
}
