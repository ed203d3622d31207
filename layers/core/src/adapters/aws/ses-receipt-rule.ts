import { DescribeReceiptRuleCommand, UpdateReceiptRuleCommand, type SESClient } from '@aws-sdk/client-ses';
import { ruleFor, type InboundRecipients } from '../../ports/inbound-recipients.ts';

/**
 * The stack's SES receipt rule (SES v1's receipt-rule API): UpdateReceiptRule replaces the whole
 * rule, so the rule is read first and written back with only its recipients and enabled state
 * changed (its actions, scanning and TLS policy stay as the stack made them).
 */
export const sesReceiptRule = (client: SESClient, ruleSetName: string, ruleName: string): InboundRecipients => {
  const read = async () => {
    const out = await client.send(new DescribeReceiptRuleCommand({ RuleSetName: ruleSetName, RuleName: ruleName }));
    if (!out.Rule) throw new Error(`The receipt rule ${ruleName} of the rule set ${ruleSetName} was not found.`);
    return out.Rule;
  };
  return {
    sync: async (domains) => {
      const next = ruleFor(domains);
      const rule = await read();
      const same =
        (rule.Enabled ?? false) === next.enabled &&
        [...(rule.Recipients ?? [])].sort().join(',') === next.recipients.join(',');
      if (!same)
        await client.send(
          new UpdateReceiptRuleCommand({
            RuleSetName: ruleSetName,
            Rule: { ...rule, Enabled: next.enabled, Recipients: next.recipients },
          }),
        );
      return next.outcome;
    },
    current: async () => {
      const rule = await read();
      return { enabled: rule.Enabled ?? false, recipients: rule.Recipients ?? [] };
    },
  };
};
