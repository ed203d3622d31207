/** DKIM and verification state of a sending domain, as the provider reports it. */
export interface IdentityStatus {
  /** DKIM CNAME tokens: each publishes `<token>._domainkey.<domain>`. */
  readonly dkimTokens: readonly string[];
  /** True once the provider has verified the domain for sending. */
  readonly verified: boolean;
  /** True when the provider has definitively failed verification. */
  readonly failed: boolean;
}

/** The provider's sending identities (SES email identities on AWS). */
export interface IdentityProvider {
  /** Registers the domain in its delivery region, with its custom MAIL FROM (return path). */
  create(input: { domain: string; region: string; mailFromDomain: string }): Promise<IdentityStatus>;
  /** Reads the current status. */
  get(input: { domain: string; region: string }): Promise<IdentityStatus>;
  /** Removes the identity; a missing one is not an error. */
  remove(input: { domain: string; region: string }): Promise<void>;
}
