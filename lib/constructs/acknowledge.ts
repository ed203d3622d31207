import { Stack, Token, Validations, type CfnElement } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * Records why a cdk-nag (AwsSolutions) finding does not apply to this construct and its children;
 * the nag test fails on any finding that is neither fixed nor acknowledged here.
 */
export const acknowledge = (scope: IConstruct, findings: Readonly<Record<string, string>>): void => {
  for (const [id, reason] of Object.entries(findings)) Validations.of(scope).acknowledge({ id, reason });
};

/** How cdk-nag writes the stack's region in a finding: the region, or `<AWS::Region>` when not fixed. */
export const nagRegion = (scope: IConstruct): string => {
  const { region } = Stack.of(scope);
  return Token.isUnresolved(region) ? '<AWS::Region>' : region;
};

/** How cdk-nag names a resource in a finding: `<LogicalId.Arn>`. */
export const nagArnOf = (resource: IConstruct): string => {
  const element = resource.node.defaultChild as CfnElement;
  return `<${Stack.of(resource).resolve(element.logicalId)}.Arn>`;
};
