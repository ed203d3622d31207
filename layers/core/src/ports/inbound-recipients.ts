/** How many recipients (addresses or domains) SES takes in one receipt rule. */
export const RECEIPT_RULE_RECIPIENTS_MAX = 100;

/**
 * The recipients the deployment's inbound receipt rule names (SES receiving on AWS): the domains
 * its teams hold, so mail for any other domain of the account is not taken.
 */
export interface InboundRecipients {
  /**
   * Makes the rule name exactly these domains: none turns the rule off (a rule that names no
   * recipient would take every verified domain of the account); more than
   * RECEIPT_RULE_RECIPIENTS_MAX answers `over-cap` and leaves the rule naming none (every
   * verified domain, the inbound function keeping only what a held domain's mailbox takes).
   * Idempotent: the whole list is written each time.
   */
  sync(domains: readonly string[]): Promise<'named' | 'off' | 'over-cap'>;
  /** The domains the rule names now (empty while it is off or over the cap). */
  current(): Promise<{ readonly enabled: boolean; readonly recipients: readonly string[] }>;
}

/** The rule's settings for a set of held domains, as both the AWS adapter and the stand-in apply them. */
export const ruleFor = (
  domains: readonly string[],
): { enabled: boolean; recipients: string[]; outcome: 'named' | 'off' | 'over-cap' } => {
  const names = [...new Set(domains.map((d) => d.toLowerCase()))].sort();
  if (names.length === 0) return { enabled: false, recipients: [], outcome: 'off' };
  if (names.length > RECEIPT_RULE_RECIPIENTS_MAX) return { enabled: true, recipients: [], outcome: 'over-cap' };
  return { enabled: true, recipients: names, outcome: 'named' };
};

/**
 * True when SES would take mail for `address` under this rule: off takes nothing; a rule naming
 * no recipient takes every (verified) domain; otherwise the address itself or its exact domain
 * (a domain recipient does not cover its subdomains).
 */
export const ruleTakes = (
  rule: { readonly enabled: boolean; readonly recipients: readonly string[] },
  address: string,
): boolean => {
  if (!rule.enabled) return false;
  if (rule.recipients.length === 0) return true;
  const a = address.toLowerCase();
  const domain = a.slice(a.lastIndexOf('@') + 1);
  return rule.recipients.includes(a) || rule.recipients.includes(domain);
};

/** A stand-in rule kept in memory (the local host): records what the service names. */
export const memoryInboundRecipients = (): InboundRecipients => {
  let rule: { enabled: boolean; recipients: string[] } = { enabled: true, recipients: [] };
  return {
    sync: async (domains) => {
      const next = ruleFor(domains);
      rule = { enabled: next.enabled, recipients: next.recipients };
      return next.outcome;
    },
    current: async () => ({ enabled: rule.enabled, recipients: [...rule.recipients] }),
  };
};
