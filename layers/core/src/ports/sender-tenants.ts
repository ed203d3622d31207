/** A team's own SES tenant and the configuration set its sends name. */
export interface SenderTenant {
  readonly tenantName: string;
  readonly configurationSet: string;
}

/**
 * The provider's tenants (SES tenants on AWS, `mailstack:sesTenants`): each team sends as its own
 * tenant, whose reputation SES keeps and acts on apart from the account's and other teams'.
 */
export interface SenderTenants {
  /**
   * The team's tenant in the region, ready to send from `domain`: created with its own
   * configuration set (events to the service, no account-level suppression) and reputation policy
   * when missing, and the domain's identity associated with it. Idempotent: what exists is kept.
   */
  ensure(input: { teamId: string; region: string; domain: string }): Promise<SenderTenant>;
  /** True while the provider has paused the tenant's sending (its own reputation findings). */
  paused(input: { tenantName: string; region: string }): Promise<boolean>;
}
