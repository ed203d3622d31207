import { MailstackError } from '../errors/mailstack-error.ts';

/** A raw MIME message for the provider. */
export interface OutgoingMessage {
  readonly region: string;
  readonly from: string;
  /** Every envelope recipient (to, cc and bcc). */
  readonly recipients: readonly string[];
  readonly raw: Buffer;
  /** Tags the provider echoes in its events, so an event finds its email and team. */
  readonly tags: Readonly<Record<string, string>>;
  /** The team's own tenant and its configuration set, when teams send as tenants (SES_TENANTS). */
  readonly tenant?: { readonly name: string; readonly configurationSet: string };
  /**
   * The instant the call was planned for in the send line (its provider window): the transport
   * lets the call go at that instant, as close to the wire as it can, and not at all when it
   * could not go within `toleranceMs` of it (TransportError 'missed': nothing was sent). It tells
   * `answered` when the provider's answer, whatever it says, reached the wire: the provider saw
   * the call by then (the send line plans the calls a second later from it).
   */
  readonly window?: {
    readonly at: number;
    readonly toleranceMs: number;
    readonly answered?: (at: number) => void;
  };
}

/**
 * Why the provider refused a message. `missed`: not sent, its planned instant had passed.
 * `paused`: the provider sends nothing for a whole scope now (the account's sending paused or
 * disabled, its 24-hour quota spent, the account suspended, a configuration or permission fault):
 * not the email's fault, it waits. `ambiguous`: no answer came back (a reset, a timeout, a 5xx),
 * so the provider may have accepted it: it must not be sent again before its events say.
 */
export type TransportFailure = 'throttled' | 'transient' | 'permanent' | 'missed' | 'paused' | 'ambiguous';

/** What stopped the provider for a whole scope (TransportError `paused`). */
export type PauseReason =
  | 'sending_paused'
  | 'sending_disabled'
  | 'quota_exhausted'
  | 'account_suspended'
  | 'configuration'
  | 'access_denied';

/**
 * A pause and whom it stops: `account`, every send of the region (its send line parks);
 * `tenant`, only the sends naming that tenant (one team's, when SES tenants are on).
 */
export interface ProviderPause {
  readonly scope: 'account' | 'tenant';
  readonly reason: PauseReason;
}

/** A refusal from the provider, classified for the retry policy. */
export class TransportError extends MailstackError {
  /** For `missed`: how far past its instant the call was when it was held back (ms). */
  readonly lateMs: number | undefined;
  /** For `paused`: what stopped the provider, and for whom. */
  readonly pause: ProviderPause | undefined;
  constructor(
    readonly kind: TransportFailure,
    message: string,
    options?: { cause?: unknown; lateMs?: number; pause?: ProviderPause },
  ) {
    super(message, { cause: options?.cause });
    this.name = 'TransportError';
    this.lateMs = options?.lateMs;
    this.pause = options?.pause;
  }
}

/** The upstream provider (SES v2 on AWS and locally through the stand-in). */
export interface MailTransport {
  /** Sends one message; returns the provider's message id, or throws a TransportError. */
  send(message: OutgoingMessage): Promise<{ providerMessageId: string }>;
  /**
   * The Message-ID header (in angle brackets) the provider writes on a message it sends, from its
   * message id, when it replaces the sender's (SES does); absent for a provider that keeps ours.
   */
  readonly messageIdOf?: (providerMessageId: string, region: string) => string;
}
