import {
  CreateEmailIdentityCommand,
  DeleteEmailIdentityCommand,
  GetEmailIdentityCommand,
  NotFoundException,
  AlreadyExistsException,
  PutEmailIdentityMailFromAttributesCommand,
  type SESv2Client,
  type Tag,
} from '@aws-sdk/client-sesv2';
import { IdentityNotOursError, type IdentityProvider, type IdentityStatus } from '../../ports/identities.ts';

/** The tag every identity the deployment creates carries: its value is the stack's name. */
const STACK_TAG = 'mailstack:stack';

const toStatus = (
  out: {
    DkimAttributes?: { Tokens?: string[]; Status?: string };
    VerifiedForSendingStatus?: boolean;
    Tags?: Tag[];
  },
  stackName: string,
  ours?: boolean,
): IdentityStatus => ({
  dkimTokens: out.DkimAttributes?.Tokens ?? [],
  verified: out.VerifiedForSendingStatus === true,
  failed: out.DkimAttributes?.Status === 'FAILED',
  ours: ours ?? (out.Tags ?? []).some((t) => t.Key === STACK_TAG && t.Value === stackName),
});

/**
 * SES v2 email identities, one client per delivery region. Identities are account-wide: each
 * one this stack creates is tagged with its name (STACK_TAG), an existing one it did not create
 * is refused (IdentityNotOursError, never reused), and only its own are ever deleted.
 */
export const sesIdentities = (
  clientFor: (region: string) => SESv2Client,
  configurationSet: string,
  stackName: string,
): IdentityProvider => {
  const find = async ({ domain, region }: { domain: string; region: string }) => {
    try {
      return toStatus(await clientFor(region).send(new GetEmailIdentityCommand({ EmailIdentity: domain })), stackName);
    } catch (error) {
      if (error instanceof NotFoundException) return undefined;
      throw error;
    }
  };
  return {
    async create({ domain, region, mailFromDomain }) {
      const ses = clientFor(region);
      let out: IdentityStatus;
      try {
        out = toStatus(
          await ses.send(
            new CreateEmailIdentityCommand({
              EmailIdentity: domain,
              ...(configurationSet ? { ConfigurationSetName: configurationSet } : {}),
              Tags: [{ Key: STACK_TAG, Value: stackName }],
            }),
          ),
          stackName,
          true,
        );
      } catch (error) {
        if (!(error instanceof AlreadyExistsException)) throw error;
        // Ours from before (a create whose domain was never stored): answered as it is. Anyone else's: refused.
        const existing = await find({ domain, region });
        if (!existing?.ours) throw new IdentityNotOursError(domain);
        out = existing;
      }
      await ses.send(
        new PutEmailIdentityMailFromAttributesCommand({
          EmailIdentity: domain,
          MailFromDomain: mailFromDomain,
          BehaviorOnMxFailure: 'USE_DEFAULT_VALUE',
        }),
      );
      return out;
    },
    async get({ domain, region }) {
      return toStatus(await clientFor(region).send(new GetEmailIdentityCommand({ EmailIdentity: domain })), stackName);
    },
    find,
    async remove({ domain, region }) {
      const existing = await find({ domain, region });
      if (!existing?.ours) return;
      try {
        await clientFor(region).send(new DeleteEmailIdentityCommand({ EmailIdentity: domain }));
      } catch (error) {
        if (!(error instanceof NotFoundException)) throw error;
      }
    },
  };
};
