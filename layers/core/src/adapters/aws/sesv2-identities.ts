import {
  CreateEmailIdentityCommand,
  DeleteEmailIdentityCommand,
  GetEmailIdentityCommand,
  NotFoundException,
  AlreadyExistsException,
  PutEmailIdentityMailFromAttributesCommand,
  type SESv2Client,
} from '@aws-sdk/client-sesv2';
import type { IdentityProvider, IdentityStatus } from '../../ports/identities.ts';

const toStatus = (out: {
  DkimAttributes?: { Tokens?: string[]; Status?: string };
  VerifiedForSendingStatus?: boolean;
}): IdentityStatus => ({
  dkimTokens: out.DkimAttributes?.Tokens ?? [],
  verified: out.VerifiedForSendingStatus === true,
  failed: out.DkimAttributes?.Status === 'FAILED',
});

/** SES v2 email identities, one client per delivery region. */
export const sesIdentities = (
  clientFor: (region: string) => SESv2Client,
  configurationSet: string,
): IdentityProvider => ({
  async create({ domain, region, mailFromDomain }) {
    const ses = clientFor(region);
    try {
      const out = await ses.send(
        new CreateEmailIdentityCommand({
          EmailIdentity: domain,
          ...(configurationSet ? { ConfigurationSetName: configurationSet } : {}),
        }),
      );
      await ses.send(
        new PutEmailIdentityMailFromAttributesCommand({
          EmailIdentity: domain,
          MailFromDomain: mailFromDomain,
          BehaviorOnMxFailure: 'USE_DEFAULT_VALUE',
        }),
      );
      return toStatus(out);
    } catch (error) {
      // Another team may have registered the same domain in this account: reuse its tokens.
      if (error instanceof AlreadyExistsException)
        return toStatus(await ses.send(new GetEmailIdentityCommand({ EmailIdentity: domain })));
      throw error;
    }
  },
  async get({ domain, region }) {
    return toStatus(await clientFor(region).send(new GetEmailIdentityCommand({ EmailIdentity: domain })));
  },
  async remove({ domain, region }) {
    try {
      await clientFor(region).send(new DeleteEmailIdentityCommand({ EmailIdentity: domain }));
    } catch (error) {
      if (!(error instanceof NotFoundException)) throw error;
    }
  },
});
