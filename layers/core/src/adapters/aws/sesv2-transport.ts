import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import {
  TransportError,
  type MailTransport,
  type OutgoingMessage,
  type PauseReason,
} from '../../ports/mail-transport.ts';
import { noteRecentCall, type AdapterCounters } from './counters.ts';

/** How one refusal of SendEmail is treated. */
export type SendErrorClass =
  | { readonly kind: 'throttled' | 'transient' | 'permanent' | 'ambiguous' }
  | { readonly kind: 'paused'; readonly reason: PauseReason };

/**
 * Every error SES v2 SendEmail documents, and the common errors of any AWS call, by name
 * (https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_SendEmail.html#API_SendEmail_Errors,
 * .../CommonErrors.html). Only the email's own faults fail it (`permanent`); an account state or
 * an operator's fault parks the region's send line (`paused`: the email waits, queued); a
 * throttle is retried through the line.
 */
const SEND_ERRORS: Readonly<Record<string, SendErrorClass>> = {
  // The email's own faults.
  MessageRejected: { kind: 'permanent' },
  BadRequestException: { kind: 'permanent' },
  // Cannot occur with BehaviorOnMxFailure USE_DEFAULT_VALUE (sesv2-identities.ts); were it to, it is the domain's.
  MailFromDomainNotVerifiedException: { kind: 'permanent' },
  // The rate (or a quota of calls): the line's pacing retries it.
  TooManyRequestsException: { kind: 'throttled' },
  ThrottlingException: { kind: 'throttled' },
  LimitExceededException: { kind: 'throttled' },
  // The account's states: nothing is sent for anyone until SES allows it again.
  SendingPausedException: { kind: 'paused', reason: 'sending_paused' },
  AccountSuspendedException: { kind: 'paused', reason: 'account_suspended' },
  // The operator's faults: the configuration set is gone, or the role or its credentials are refused.
  NotFoundException: { kind: 'paused', reason: 'configuration' },
  AccessDeniedException: { kind: 'paused', reason: 'access_denied' },
  UnrecognizedClientException: { kind: 'paused', reason: 'access_denied' },
  InvalidClientTokenId: { kind: 'paused', reason: 'access_denied' },
  MissingAuthenticationToken: { kind: 'paused', reason: 'access_denied' },
  IncompleteSignature: { kind: 'paused', reason: 'access_denied' },
  InvalidSignatureException: { kind: 'paused', reason: 'access_denied' },
  SignatureDoesNotMatch: { kind: 'paused', reason: 'access_denied' },
  ExpiredTokenException: { kind: 'paused', reason: 'access_denied' },
  NotAuthorized: { kind: 'paused', reason: 'access_denied' },
  OptInRequired: { kind: 'paused', reason: 'access_denied' },
  // Server side: the request may have been carried out, its answer is lost.
  InternalFailure: { kind: 'ambiguous' },
  ServiceUnavailable: { kind: 'ambiguous' },
};

/** Connection errors raised before a byte of the request left: SES cannot have seen it. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

/** The request never reached SES: no connection was made (refused, unresolved, or not made within the connect timeout). */
const neverSent = (error: unknown): boolean => {
  const { name, code, message } = (error ?? {}) as { name?: string; code?: string; message?: string };
  if (code && NOT_CONNECTED.has(code)) return true;
  return name === 'TimeoutError' && /did not establish a connection/i.test(String(message ?? ''));
};

/** SES's throttling message once the 24-hour quota is spent (https://docs.aws.amazon.com/ses/latest/dg/manage-sending-quotas-errors.html). */
const DAILY_QUOTA = /daily message quota exceeded/i;

/**
 * The class of a SendEmail failure: by its name (SEND_ERRORS), a spent daily quota by its
 * message, else by its HTTP status (429 throttled, 403 a permission fault, another 4xx the
 * email's, 5xx ambiguous); an error without an HTTP answer (a reset, a timeout) is ambiguous:
 * the request may have reached SES and been accepted, unless no connection was ever made
 * (transient: safe to send again).
 */
export const classifySendError = (error: unknown): SendErrorClass => {
  const name = (error as Error)?.name ?? '';
  const message = String((error as Error)?.message ?? '');
  const status = (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
  const named = SEND_ERRORS[name];
  if (DAILY_QUOTA.test(message) && (named?.kind === 'throttled' || status === 429 || status === 400))
    return { kind: 'paused', reason: 'quota_exhausted' };
  if (named) return named;
  if (!status) return neverSent(error) ? { kind: 'transient' } : { kind: 'ambiguous' };
  if (status === 429) return { kind: 'throttled' };
  if (status === 403 || status === 401) return { kind: 'paused', reason: 'access_denied' };
  if (status >= 400 && status < 500) return { kind: 'permanent' };
  return { kind: 'ambiguous' };
};

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
      const found = classifySendError(error);
      const text = `${(error as Error).name}: ${(error as Error).message}`;
      // A pause SES answers to this call is the account's; the tenant's scope is for sends that name a tenant.
      throw new TransportError(found.kind, text, {
        cause: error,
        ...(found.kind === 'paused' ? { pause: { scope: 'account', reason: found.reason } } : {}),
      });
    }
  },
});
