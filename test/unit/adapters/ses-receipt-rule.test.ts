import { describe, expect, it } from 'vitest';
import type { SESClient } from '@aws-sdk/client-ses';
import { sesReceiptRule } from '@mailstack/core/adapters/aws/ses-receipt-rule';

/** An SES client playing one receipt rule: DescribeReceiptRule answers it, UpdateReceiptRule replaces it whole. */
const oneRule = () => {
  let rule: Record<string, unknown> = {
    Name: 'Mailstack-mailboxes',
    Enabled: true,
    ScanEnabled: true,
    TlsPolicy: 'Optional',
    Actions: [{ S3Action: { BucketName: 'content', ObjectKeyPrefix: 'inbound/' } }],
  };
  const calls: string[] = [];
  const client = {
    send: async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
      calls.push(`${command.constructor.name} ${String(command.input.RuleSetName)}`);
      if (command.constructor.name === 'DescribeReceiptRuleCommand') return { Rule: rule };
      rule = command.input.Rule as Record<string, unknown>;
      return {};
    },
  } as unknown as SESClient;
  return { client, calls, rule: () => rule };
};

describe('the receipt rule on SES', () => {
  it('names the held domains and keeps the actions, scanning and TLS policy the stack gave the rule', async () => {
    const ses = oneRule();
    const rule = sesReceiptRule(ses.client, 'Mailstack-inbound', 'Mailstack-mailboxes');
    expect(await rule.sync(['b.example.com', 'a.example.com'])).toBe('named');
    expect(ses.rule()).toEqual({
      Name: 'Mailstack-mailboxes',
      Enabled: true,
      ScanEnabled: true,
      TlsPolicy: 'Optional',
      Actions: [{ S3Action: { BucketName: 'content', ObjectKeyPrefix: 'inbound/' } }],
      Recipients: ['a.example.com', 'b.example.com'],
    });
    expect(ses.calls).toEqual([
      'DescribeReceiptRuleCommand Mailstack-inbound',
      'UpdateReceiptRuleCommand Mailstack-inbound',
    ]);
  });

  it('writes nothing when the rule already names the set, and turns the rule off when none is held', async () => {
    const ses = oneRule();
    const rule = sesReceiptRule(ses.client, 'Mailstack-inbound', 'Mailstack-mailboxes');
    await rule.sync(['a.example.com']);
    ses.calls.length = 0;
    await rule.sync(['A.example.com']);
    expect(ses.calls).toEqual(['DescribeReceiptRuleCommand Mailstack-inbound']);
    expect(await rule.sync([])).toBe('off');
    expect(await rule.current()).toEqual({ enabled: false, recipients: [] });
  });
});
