import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import { TransportError, type MailTransport } from '../../ports/mail-transport.ts';
import type { AdapterCounters } from './counters.ts';

const THROTTLED = new Set(['TooManyRequestsException', 'ThrottlingException', 'LimitExceededException', 'SendingPausedException']);
const PERMANENT = new Set(['MessageRejected', 'MailFromDomainNotVerifiedException', 'AccountSuspendedException', 'BadRequestException', 'NotFoundException']);

/**
 * SES v2 SendEmail with raw content, the stack's configuration set and our tags. The set publishes
 * no opens or clicks, so SES never adds a pixel or rewrites a link: the service tracks opens and
 * clicks itself (domain switches, its own signed links, machine opens told apart).
 */
export const sesTransport = (clientFor: (region: string) => SESv2Client, configurationSet: string, counters: AdapterCounters): MailTransport => ({
  async send(message) {
    counters.providerSends++;
    try {
      const out = await clientFor(message.region).send(new SendEmailCommand({
        FromEmailAddress: message.from,
        Destination: { ToAddresses: [...message.recipients] },
        Content: { Raw: { Data: message.raw } },
        EmailTags: Object.entries(message.tags).map(([Name, Value]) => ({ Name, Value })),
        ...(configurationSet ? { ConfigurationSetName: configurationSet } : {}),
      }));
      return { providerMessageId: out.MessageId ?? '' };
    } catch (error) {
      const name = (error as Error).name;
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? 0;
      if (THROTTLED.has(name) || status === 429) throw new TransportError('throttled', `${name}: ${(error as Error).message}`, { cause: error });
      if (PERMANENT.has(name) || (status >= 400 && status < 500)) throw new TransportError('permanent', `${name}: ${(error as Error).message}`, { cause: error });
      throw new TransportError('transient', `${name}: ${(error as Error).message}`, { cause: error });
    }
  },
});
