import { GetAccountCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import { TransportError } from '../../ports/mail-transport.ts';
import type { ProviderAccount } from '../../ports/provider-account.ts';
import { classifySendError } from './sesv2-transport.ts';

/** SES v2 GetAccount (`ses:GetAccount`): the send quota, the maximum send rate and whether sending is enabled. */
export const sesAccount = (clientFor: (region: string) => SESv2Client): ProviderAccount => ({
  async read(region) {
    try {
      const out = await clientFor(region).send(new GetAccountCommand({}));
      return {
        sendingEnabled: out.SendingEnabled !== false,
        maxSendRate: out.SendQuota?.MaxSendRate,
        max24HourSend: out.SendQuota?.Max24HourSend,
        sentLast24Hours: out.SendQuota?.SentLast24Hours,
        enforcementStatus: out.EnforcementStatus,
      };
    } catch (error) {
      const found = classifySendError(error);
      throw new TransportError(
        found.kind === 'paused' ? 'paused' : 'ambiguous',
        `${(error as Error).name}: ${(error as Error).message}`,
        { cause: error, ...(found.kind === 'paused' ? { pause: { scope: 'account', reason: found.reason } } : {}) },
      );
    }
  },
});
