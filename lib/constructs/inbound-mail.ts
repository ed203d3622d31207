import { Construct } from 'constructs';
import { ReceiptRule, ReceiptRuleSet, TlsPolicy, type IReceiptRuleSet } from 'aws-cdk-lib/aws-ses';
import { Lambda, LambdaInvocationType, S3 } from 'aws-cdk-lib/aws-ses-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { INBOUND_RAW_PREFIX } from '@mailstack/core/content-keys';
import type { ContentBucket } from './content-bucket.ts';

/** Props of the inbound mail construct. */
export interface InboundMailProps {
  /** Where the receipt rule stores each raw message (under `inbound/`). */
  readonly content: ContentBucket;
  /** The inbound Lambda, invoked after the message is stored. */
  readonly receiver: IFunction;
  /** The receipt rule set: created with this name, or the account's existing (active) set of this name. */
  readonly ruleSetName: string;
  /** The rule's name: the domain use cases name the held domains in it at run time. */
  readonly ruleName: string;
  /** Add the rule to an existing rule set instead of creating one. */
  readonly addToExistingRuleSet: boolean;
}

/**
 * SES receiving for the mailbox domains: one receipt rule, named for the domains the deployment's
 * teams hold (the domain use cases set its recipients at run time: the stack gives it none, so
 * until the first domain change, or when a deploy resets it, it takes every verified domain of
 * the account in this region, and the Lambda keeps only what a held domain's mailbox takes), that scans for spam and viruses, stores the raw message in the content bucket and
 * then invokes the inbound Lambda. An account has one active receipt rule set per region and
 * CloudFormation cannot activate one, so either the stack creates its own set (activate it once)
 * or adds its rule to the set that is already active.
 */
export class InboundMail extends Construct {
  readonly ruleSetName: string;
  readonly ruleSet: IReceiptRuleSet;

  constructor(scope: Construct, id: string, props: InboundMailProps) {
    super(scope, id);
    this.ruleSetName = props.ruleSetName;
    this.ruleSet = props.addToExistingRuleSet
      ? ReceiptRuleSet.fromReceiptRuleSetName(this, 'RuleSet', props.ruleSetName)
      : new ReceiptRuleSet(this, 'RuleSet', { receiptRuleSetName: props.ruleSetName });
    new ReceiptRule(this, 'Mailboxes', {
      ruleSet: this.ruleSet,
      receiptRuleName: props.ruleName,
      enabled: true,
      scanEnabled: true,
      tlsPolicy: TlsPolicy.OPTIONAL,
      actions: [
        new S3({ bucket: props.content.bucket, objectKeyPrefix: INBOUND_RAW_PREFIX }),
        new Lambda({ function: props.receiver, invocationType: LambdaInvocationType.EVENT }),
      ],
    });
  }
}
