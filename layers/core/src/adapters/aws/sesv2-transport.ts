import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import { TransportError, type MailTransport, type OutgoingMessage } from '../../ports/mail-transport.ts';
import { noteRecentCall, type AdapterCounters } from './counters.ts';

const THROTTLED = new Set([
  'TooManyRequestsException',
  'ThrottlingException',
  'LimitExceededException',
  'SendingPausedException',
]);
const PERMANENT = new Set([
  'MessageRejected',
  'MailFromDomainNotVerifiedException',
  'AccountSuspendedException',
  'BadRequestException',
  'NotFoundException',
]);

/**
 * The innermost step of a SendEmail, after serializing and signing: waits for the planned
 * instant (a timer, then the last milliseconds watched) and lets the request go then, or refuses
 * when that instant has passed by more than the tolerance; tells the window when the answer came
 * back (any HTTP answer, before it is read: a refusal too).
 */
const atInstant =
  (window: NonNullable<OutgoingMessage['window']>, released: (at: number) => void, answered: (at: number) => void) =>
  (next: (args: any) => Promise<any>) =>
  async (args: any) => {
    const early = window.at - 2 - Date.now();
    if (early > 0) await new Promise((r) => setTimeout(r, early));
    while (Date.now() < window.at) {
      /* the last milliseconds, watched */
    }
    const late = Date.now() - window.at;
    if (late > window.toleranceMs)
      throw new TransportError('missed', `not sent: ${late} ms past its planned instant`, { lateMs: late });
    released(window.at + late);
    const answer = await next(args);
    const at = Date.now();
    answered(at);
    window.answered?.(at);
    return answer;
  };

/**
 * The Message-ID SES writes on what it sends, replacing the sender's: its message id at
 * `email.amazonses.com` in us-east-1, at `<region>.amazonses.com` elsewhere
 * (https://docs.aws.amazon.com/ses/latest/dg/header-fields.html).
 */
const sesMessageId = (providerMessageId: string, region: string): string =>
  `<${providerMessageId}@${region === 'us-east-1' ? 'email' : region}.amazonses.com>`;

/**
 * SES v2 SendEmail with raw content, the stack's configuration set and our tags. The set publishes
 * no opens or clicks, so SES never adds a pixel or rewrites a link: the service tracks opens and
 * clicks itself (domain switches, its own signed links, machine opens told apart).
 */
export const sesTransport = (
  clientFor: (region: string) => SESv2Client,
  configurationSet: string,
  counters: AdapterCounters,
): MailTransport => ({
  messageIdOf: sesMessageId,
  async send(message) {
    const command = new SendEmailCommand({
      FromEmailAddress: message.from,
      Destination: { ToAddresses: [...message.recipients] },
      Content: { Raw: { Data: message.raw } },
      EmailTags: Object.entries(message.tags).map(([Name, Value]) => ({ Name, Value })),
      ...(message.tenant
        ? { TenantName: message.tenant.name, ConfigurationSetName: message.tenant.configurationSet }
        : configurationSet
          ? { ConfigurationSetName: configurationSet }
          : {}),
    });
    if (message.window)
      command.middlewareStack.add(
        atInstant(
          message.window,
          (at) => {
            if (message.tags.email_id) noteRecentCall(counters.callReleasedAt, message.tags.email_id, at);
          },
          (at) => {
            if (message.tags.email_id) noteRecentCall(counters.callAnsweredAt, message.tags.email_id, at);
          },
        ),
        {
          step: 'deserialize',
          priority: 'low',
          name: 'providerWindow',
        },
      );
    try {
      const out = await clientFor(message.region).send(command);
      counters.providerSends++;
      return { providerMessageId: out.MessageId ?? '' };
    } catch (error) {
      if (error instanceof TransportError) throw error;
      const name = (error as Error).name;
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? 0;
      if (THROTTLED.has(name) || status === 429)
        throw new TransportError('throttled', `${name}: ${(error as Error).message}`, { cause: error });
      if (PERMANENT.has(name) || (status >= 400 && status < 500))
        throw new TransportError('permanent', `${name}: ${(error as Error).message}`, { cause: error });
      throw new TransportError('transient', `${name}: ${(error as Error).message}`, { cause: error });
    }
  },
});
