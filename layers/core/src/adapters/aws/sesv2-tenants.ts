import {
  AlreadyExistsException,
  CreateConfigurationSetCommand,
  CreateConfigurationSetEventDestinationCommand,
  CreateTenantCommand,
  CreateTenantResourceAssociationCommand,
  GetTenantCommand,
  UpdateReputationEntityPolicyCommand,
  type SESv2Client,
} from '@aws-sdk/client-sesv2';
import type { SenderTenants } from '../../ports/sender-tenants.ts';

/** SES's own policy for a tenant: it pauses the tenant's sending on high-severity reputation findings. */
const REPUTATION_POLICY = 'standard';

/** Every event but opens and clicks, as the stack's configuration set publishes (the service tracks those). */
const EVENTS = ['SEND', 'DELIVERY', 'BOUNCE', 'COMPLAINT', 'DELIVERY_DELAY', 'REJECT', 'RENDERING_FAILURE'] as const;

const existing = (error: unknown) =>
  error instanceof AlreadyExistsException || (error as Error).name === 'AlreadyExistsException';

/** Runs a create; one that finds its resource already there is done (the calls are repeated safely). */
const create = async (run: () => Promise<unknown>): Promise<void> => {
  try {
    await run();
  } catch (error) {
    if (!existing(error)) throw error;
  }
};

/** What every tenant and configuration set name of a stack starts with (the stack grants its calls on these names). */
export const tenantNamePrefix = (base: string): string => `${base.slice(0, 31)}-`;

/**
 * The names of a team's tenant and configuration set: the stack's configuration set name (its
 * prefix, so two stacks in one account never share one) and the team id (32 hex digits), within
 * SES's 64 characters (letters, digits, hyphens).
 */
const tenantNameOf = (base: string, teamId: string): string => `${tenantNamePrefix(base)}${teamId.replaceAll('-', '')}`;

/**
 * SES v2 tenants, one client per delivery region: each team's tenant, its configuration set
 * (publishing to the stack's events topic, no opens or clicks, none of the account-level
 * suppression reasons), the set and each sending identity associated with the tenant, and SES's
 * standard reputation policy on it.
 */
export const sesTenants = (
  clientFor: (region: string) => SESv2Client,
  base: string,
  eventsTopicArn: string,
): SenderTenants => ({
  async ensure({ teamId, region, domain }) {
    const ses = clientFor(region);
    const name = tenantNameOf(base, teamId);
    await create(() =>
      ses.send(
        new CreateConfigurationSetCommand({
          ConfigurationSetName: name,
          SuppressionOptions: { SuppressedReasons: [] },
          Tags: [{ Key: 'mailstack:team', Value: teamId }],
        }),
      ),
    );
    if (eventsTopicArn)
      await create(() =>
        ses.send(
          new CreateConfigurationSetEventDestinationCommand({
            ConfigurationSetName: name,
            EventDestinationName: `${name.slice(0, 56)}-to-sns`,
            EventDestination: {
              Enabled: true,
              MatchingEventTypes: [...EVENTS],
              SnsDestination: { TopicArn: eventsTopicArn },
            },
          }),
        ),
      );
    await create(() =>
      ses.send(new CreateTenantCommand({ TenantName: name, Tags: [{ Key: 'mailstack:team', Value: teamId }] })),
    );
    const tenant = (await ses.send(new GetTenantCommand({ TenantName: name }))).Tenant;
    // arn:<partition>:ses:<region>:<account>:tenant/<name>/<id>
    const [, partition, , , account] = (tenant?.TenantArn ?? '').split(':');
    const arn = (resource: string) => `arn:${partition}:ses:${region}:${account}:${resource}`;
    for (const resource of [`configuration-set/${name}`, `identity/${domain}`])
      await create(() =>
        ses.send(new CreateTenantResourceAssociationCommand({ TenantName: name, ResourceArn: arn(resource) })),
      );
    await ses.send(
      new UpdateReputationEntityPolicyCommand({
        ReputationEntityType: 'RESOURCE',
        ReputationEntityReference: tenant?.TenantArn,
        ReputationEntityPolicy: `arn:${partition}:ses:${region}:aws:reputation-policy/${REPUTATION_POLICY}`,
      }),
    );
    return { tenantName: name, configurationSet: name };
  },
  async paused({ tenantName, region }) {
    const out = await clientFor(region).send(new GetTenantCommand({ TenantName: tenantName }));
    return out.Tenant?.SendingStatus === 'DISABLED';
  },
});
