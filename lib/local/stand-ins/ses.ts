import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { installInboxPage } from './inbox-page.ts';
import { newTenantState, refuseTenantSend, tenantCall, type TenantState } from './ses-tenants.ts';
import { freePort } from '../ports.ts';
import type { GateMessage, GateOptions } from './rate-gate.ts';

const require = createRequire(import.meta.url);

/** A stored inbox message as aws-ses-v2-local keeps it, plus what we add: the raw MIME and every header. */
interface StoredEmail {
  messageId: string;
  raw?: string;
  headers?: { name: string; value: string }[];
}
const inboxStore = () =>
  (require('aws-ses-v2-local/dist/store.js') as { getStoreReadonly(): { emails: StoredEmail[] } }).getStoreReadonly();

/** The header fields of a raw message (folded lines joined), in order. */
const headersOf = (raw: string): { name: string; value: string }[] => {
  const end = raw.search(/\r?\n\r?\n/);
  const block = (end === -1 ? raw : raw.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
  return block
    .split(/\r?\n/)
    .filter((l) => l.includes(':'))
    .map((l) => {
      const at = l.indexOf(':');
      return { name: l.slice(0, at).trim(), value: l.slice(at + 1).trim() };
    });
};

/** Keeps a sent message's raw MIME and headers on its inbox entry, so the store JSON and the view show them. */
const keepRaw = (messageId: string, raw: string) => {
  const emails = inboxStore().emails;
  for (let i = emails.length - 1; i >= 0 && i >= emails.length - 1000; i--) {
    const e = emails[i]!;
    if (e.messageId === messageId) {
      e.raw = raw;
      e.headers = headersOf(raw);
      return;
    }
  }
};

/** What the stand-in remembers of an SES email identity. */
interface Identity {
  tokens: string[];
  verificationRequested: boolean;
  /** The tags given at CreateEmailIdentity (GetEmailIdentity answers them). */
  tags?: { Key: string; Value: string }[];
}

/**
 * How the stand-in holds the provider rate: per calendar second (as SES counts its quota), or
 * over every sliding one-second window (no second, however placed, holds more than the rate).
 */
export type RateWindow = 'calendar' | 'sliding';

/** What the stand-in counts: sends accepted and throttled, and when it accepted each email (by its email_id tag). */
export interface ProviderStats {
  accepted: number;
  throttled: number;
  readonly acceptedAt: Map<string, number>;
  /** When each admitted send arrived (epoch ms, the last 100,000), for the busiest-second figures. */
  readonly admittedAt: number[];
  /** When the rate gate admitted each email (by its email_id tag): its call's arrival. */
  readonly arrivedAt: Map<string, number>;
  /** The window the rate is held over; may be changed while running. */
  window: RateWindow;
  /** SES tenants (teams sending as tenants, `SES_TENANTS`), with a switch to pause one as SES does. */
  readonly tenants: TenantState;
}

/** The most sends any one-second window holds: calendar seconds, or every sliding window, of `times` (epoch ms). */
export const busiestSecond = (times: readonly number[], window: RateWindow): number => {
  const sorted = [...times].sort((a, b) => a - b);
  if (window === 'calendar') {
    const perSecond = new Map<number, number>();
    for (const t of sorted) perSecond.set(Math.floor(t / 1000), (perSecond.get(Math.floor(t / 1000)) ?? 0) + 1);
    return Math.max(0, ...perSecond.values());
  }
  let most = 0;
  for (let lo = 0, hi = 0; hi < sorted.length; hi++) {
    while (sorted[hi]! - sorted[lo]! >= 1000) lo++;
    most = Math.max(most, hi - lo + 1);
  }
  return most;
};

/**
 * The account states the stand-in plays on demand (a test or `POST /_stand-in/account` sets
 * them), each answered as SES answers it: SendEmail refused with SES's error and type, GetAccount
 * reporting the state.
 */
export interface StandInAccount {
  /** SES paused the account's sending (a reputation review): SendingPausedException; GetAccount SendingEnabled false, EnforcementStatus SHUTDOWN. */
  sendingPaused: boolean;
  /** The account's sending disabled (UpdateAccountSendingEnabled false): SendingPausedException; GetAccount SendingEnabled false. */
  sendingDisabled: boolean;
  /** The account suspended: AccountSuspendedException; GetAccount SendingEnabled false, EnforcementStatus SHUTDOWN. */
  suspended: boolean;
  /** The configuration set the sends name is gone: NotFoundException. */
  configurationSetMissing: boolean;
  /** The caller's role may not send (IAM): 403 AccessDeniedException, on SendEmail and GetAccount. */
  accessDenied: boolean;
  /** Accepts a SendEmail (delivers it, publishes its events) and then drops the connection instead of answering. */
  dropAfterAccept: boolean;
  /** GetAccount's SendQuota.MaxSendRate. @default - the stand-in's rate */
  maxSendRate: number;
  /** Recipients per 24 hours (GetAccount's Max24HourSend); past it SendEmail is refused "Daily message quota exceeded." -1: none. */
  max24HourSend: number;
}

/** Options of the SES stand-in. */
export interface SesStandInOptions {
  /** The SES endpoint port the runtime talks to. */
  readonly port: number;
  /** The port of the embedded aws-ses-v2-local (the local inbox). */
  readonly inboxPort: number;
  /**
   * File that keeps identities across restarts, and is the account's identities: every stand-in
   * started on the same file (two local hosts on one state folder, staging and production in one
   * account) reads and writes it at each call. In memory when absent.
   */
  readonly stateFile?: string | undefined;
  /** Sends allowed per second; beyond it SendEmail answers 429 TooManyRequestsException as SES does. */
  readonly ratePerSecond: number;
  /** The window the rate is held over. @default - 'calendar' */
  readonly window?: RateWindow;
  /** The address the inbox page listens on. @default - 127.0.0.1 */
  readonly inboxAddress?: string | undefined;
  /** Which events to notify: every outcome of the simulator (default), or only Send (large test runs). */
  readonly events?: 'all' | 'send';
}

/** What the stand-in does after accepting a message for each recipient (the SES mailbox simulator). */
type Outcome = 'Send' | 'Delivery' | 'Bounce' | 'Complaint' | 'Suppressed' | 'DeliveryDelay' | 'SoftBounce' | 'Reject';
const SIMULATOR: Record<string, readonly Outcome[]> = {
  'success@simulator.amazonses.com': ['Send', 'Delivery'],
  'bounce@simulator.amazonses.com': ['Send', 'Bounce'],
  'complaint@simulator.amazonses.com': ['Send', 'Delivery', 'Complaint'],
  'suppressionlist@simulator.amazonses.com': ['Send', 'Suppressed'],
  'ooto@simulator.amazonses.com': ['Send', 'Delivery'],
  'delivered@resend.dev': ['Send', 'Delivery'],
  'bounced@resend.dev': ['Send', 'Bounce'],
  'complained@resend.dev': ['Send', 'Delivery', 'Complaint'],
  // Local only (`.localhost` never routes on AWS): what SES publishes that its simulator cannot
  // produce. A soft bounce comes after SES gave up retrying, so a delay is published before it.
  'delayed@simulator.localhost': ['Send', 'DeliveryDelay', 'Delivery'],
  'soft-bounce@simulator.localhost': ['Send', 'DeliveryDelay', 'SoftBounce'],
  'rejected@simulator.localhost': ['Send', 'Reject'],
};
const outcomesFor = (address: string): readonly Outcome[] =>
  SIMULATOR[address.toLowerCase().replace(/\+[^@]*@/, '@')] ?? ['Send', 'Delivery'];

/** Builds the SES event notification SNS would deliver for one outcome. */
const sesEvent = (
  kind: string,
  messageId: string,
  source: string,
  recipients: string[],
  tags: Record<string, string[]>,
  recipient: string,
) => {
  const timestamp = new Date().toISOString();
  const mail = { timestamp, messageId, source, destination: recipients, tags };
  switch (kind) {
    case 'Send':
      return { eventType: 'Send', mail, send: {} };
    case 'Delivery':
      return {
        eventType: 'Delivery',
        mail,
        delivery: { timestamp, recipients: [recipient], smtpResponse: '250 2.6.0 Message received' },
      };
    case 'Bounce':
      return {
        eventType: 'Bounce',
        mail,
        bounce: {
          bounceType: 'Permanent',
          bounceSubType: 'General',
          timestamp,
          bouncedRecipients: [
            {
              emailAddress: recipient,
              action: 'failed',
              status: '5.1.1',
              diagnosticCode: 'smtp; 550 5.1.1 user unknown',
            },
          ],
        },
      };
    case 'SoftBounce':
      return {
        eventType: 'Bounce',
        mail,
        bounce: {
          bounceType: 'Transient',
          bounceSubType: 'MailboxFull',
          timestamp,
          bouncedRecipients: [
            {
              emailAddress: recipient,
              action: 'failed',
              status: '4.2.2',
              diagnosticCode: 'smtp; 452 4.2.2 mailbox full',
            },
          ],
        },
      };
    case 'DeliveryDelay':
      return {
        eventType: 'DeliveryDelay',
        mail,
        deliveryDelay: {
          timestamp,
          delayType: 'MailboxFull',
          expirationTime: new Date(Date.now() + 12 * 3600_000).toISOString(),
          delayedRecipients: [
            { emailAddress: recipient, status: '4.2.2', diagnosticCode: 'smtp; 452 4.2.2 mailbox full' },
          ],
        },
      };
    case 'Reject':
      return { eventType: 'Reject', mail, reject: { reason: 'Bad content' } };
    case 'Suppressed':
      return {
        eventType: 'Bounce',
        mail,
        bounce: {
          bounceType: 'Permanent',
          bounceSubType: 'OnAccountSuppressionList',
          timestamp,
          bouncedRecipients: [
            {
              emailAddress: recipient,
              diagnosticCode:
                'Amazon SES has suppressed sending to this address because it is on the account-level suppression list.',
            },
          ],
        },
      };
    default:
      return {
        eventType: 'Complaint',
        mail,
        complaint: { timestamp, complainedRecipients: [{ emailAddress: recipient }], complaintFeedbackType: 'abuse' },
      };
  }
};

const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

/**
 * aws-ses-v2-local parses JSON bodies up to 25 MB, but SendEmail carries the raw message
 * base64-encoded inside its JSON, so an email near the API's 25 MiB ceiling arrives as ~34 MB.
 * SendEmail's body is read here instead (the runtime never sends more than the ceiling allows)
 * and handed on parsed: the engine's body parser leaves a request already read alone.
 */
const liftSendLimit = (inbox: Server) => {
  const engine = inbox.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  inbox.removeAllListeners('request');
  inbox.on('request', async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'POST' && (req.url ?? '').split('?')[0] === '/v2/email/outbound-emails') {
      try {
        (req as IncomingMessage & { body?: unknown }).body = JSON.parse((await readBody(req)).toString('utf8') || '{}');
      } catch (error) {
        return send(
          res,
          400,
          { message: `SendEmail body is not JSON: ${(error as Error).message}` },
          'BadRequestException',
        );
      }
    }
    for (const listener of engine) listener.call(inbox, req, res);
  });
};

/** The topic the stand-in plays: SES events reach the provider-events queue as SNS puts them there. */
export const LOCAL_EVENTS_TOPIC_ARN = 'arn:aws:sns:us-east-1:000000000000:ses-events';

/** Where the stand-in publishes SES events (an SNS notification, as SNS delivers it to SQS). */
export type EventsSink = (notification: Record<string, string>) => Promise<void>;

/** Where the stand-in hands each accepted message for local delivery (the host passes mail for local mailboxes to its inbound listener). */
export type InboundHandoff = (from: string, recipients: readonly string[], raw: Buffer) => Promise<void>;

const send = (res: ServerResponse, status: number, body: unknown, type = 'NotFoundException') => {
  res.writeHead(status, { 'content-type': 'application/json', ...(status >= 400 ? { 'x-amzn-errortype': type } : {}) });
  res.end(JSON.stringify(body));
};

/** The region a signed SES request is for (its SigV4 credential scope); us-east-1 when unsigned. */
const regionOf = (req: IncomingMessage): string =>
  /Credential=[^/,]+\/\d{8}\/([a-z0-9-]+)\/ses\//.exec(String(req.headers.authorization ?? ''))?.[1] ?? 'us-east-1';

/**
 * What SES does to a message it accepts: its own Message-ID and Date replace any the sender wrote
 * (https://docs.aws.amazon.com/ses/latest/dg/header-fields.html). The Message-ID is the
 * SendEmail answer's MessageId at `email.amazonses.com` in us-east-1, at
 * `<region>.amazonses.com` elsewhere. Headers are read as bytes: the body is left as it came.
 */
const sesSentMessage = (raw: Buffer, messageId: string, region: string, at = new Date()): Buffer => {
  const text = raw.toString('latin1');
  const end = text.search(/\r?\n\r?\n/);
  const head = end === -1 ? text : text.slice(0, end);
  const eol = head.includes('\r\n') ? '\r\n' : '\n';
  const kept = head
    .split(/\r?\n(?![ \t])/)
    .filter((field) => !/^(message-id|date)\s*:/i.test(field))
    .join(eol);
  const host = region === 'us-east-1' ? 'email.amazonses.com' : `${region}.amazonses.com`;
  const date = at
    .toUTCString()
    .replace(/ GMT$/, ' +0000')
    .replace(/, 0(\d) /, ', $1 ');
  const written = `${kept}${eol}Date: ${date}${eol}Message-ID: <${messageId}@${host}>`;
  return Buffer.concat([Buffer.from(written, 'latin1'), raw.subarray(Buffer.byteLength(head, 'latin1'))]);
};

/** Tag names SES allows beyond the plain charset (fine-grained feedback). */
const SES_TAG_NAMES = new Set(['ses:feedback-id-a', 'ses:feedback-id-b']);
const TAG_CHARSET = /^[A-Za-z0-9_-]{1,256}$/;

/**
 * What SES refuses in a SendEmail's fields with 400 BadRequestException before accepting it:
 * addresses that are not 7-bit ASCII (no SMTPUTF8: an ASCII local part, a Punycode domain;
 * https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_Destination.html), and message tags
 * outside ASCII letters, digits, `_` and `-` or over 256 characters
 * (https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_MessageTag.html).
 */
const sendRefusal = (request: Record<string, any>): string | undefined => {
  const d = request.Destination ?? {};
  const addresses: unknown[] = [
    request.FromEmailAddress,
    ...(d.ToAddresses ?? []),
    ...(d.CcAddresses ?? []),
    ...(d.BccAddresses ?? []),
    ...(request.ReplyToAddresses ?? []),
  ];
  for (const value of addresses) {
    if (typeof value !== 'string') continue;
    const bare = /<([^>]*)>\s*$/.exec(value)?.[1] ?? value;
    const at = bare.lastIndexOf('@');
    if (/[^\x20-\x7e]/.test(bare.slice(0, at))) return 'Local address contains control or whitespace';
    if (/[^\x20-\x7e]/.test(bare.slice(at + 1))) return 'Domain contains illegal character';
    if (/[^\x20-\x7e]/.test(value)) return `Illegal address: ${value}`;
  }
  for (const tag of (request.EmailTags ?? []) as { Name?: unknown; Value?: unknown }[]) {
    const name = String(tag.Name ?? '');
    if (!TAG_CHARSET.test(name) && !SES_TAG_NAMES.has(name))
      return `Invalid tag name <${name}>: only alphanumeric ASCII characters, '_', and '-' are allowed.`;
    if (!TAG_CHARSET.test(String(tag.Value ?? '')))
      return `Invalid tag value <${String(tag.Value ?? '')}>: only alphanumeric ASCII characters, '_', and '-' are allowed.`;
  }
  return undefined;
};

/** The plain-text notification SES publishes to a new SNS event destination (not an event). */
const SNS_TOPIC_VALIDATION = 'Successfully validated SNS topic for Amazon SES event publishing.';

/**
 * A recipient with this label (`success+unordered-twice@simulator.amazonses.com`) makes SNS's
 * worst case happen to its message's events: each delivered twice, the whole set in reverse.
 */
const TWICE_UNORDERED = /\+[^@]*unordered-twice[^@]*@/i;

/** How often SNS delivers an event a second time by default (at least once: rare, never zero). */
const REDELIVERY_RATE = 1 / 50;

/**
 * When each of one message's events reaches the queue (ms after SES accepted it), SNS standard to
 * SQS being at least once and unordered: by default in SES's order, the first (Send) about 35 ms
 * after, each later one 15 ms after the one before, and one in 50 again 100 to 300 ms later (a
 * duplicate, as SNS may deliver). With `twiceUnordered` every event comes twice, the whole set in
 * reverse order, from 300 ms on.
 */
const eventTimings = <T>(events: readonly T[], twiceUnordered: boolean): { event: T; at: number }[] => {
  if (twiceUnordered) {
    const reversed = [...events].reverse();
    return [...reversed, ...reversed].map((event, i) => ({ event, at: 300 + 15 * i }));
  }
  return events.flatMap((event, i) => [
    { event, at: 35 + 15 * i },
    ...(Math.random() < REDELIVERY_RATE ? [{ event, at: 35 + 15 * i + 100 + Math.floor(Math.random() * 200) }] : []),
  ]);
};

/**
 * The local SES v2 endpoint: email identities (DKIM tokens; verification succeeds once asked)
 * are answered here, everything else (SendEmail, the inbox at GET /store and the web view) is
 * served by the embedded aws-ses-v2-local.
 */
export const startSesStandIn = async (
  options: SesStandInOptions,
): Promise<{
  server: Server;
  inbox: Server;
  stop: () => Promise<void>;
  setEventsSink: (sink: EventsSink) => void;
  setInboundHandoff: (handoff: InboundHandoff) => void;
  stats: ProviderStats;
  /** The account's states: set a field to play it, clear it to end it. */
  account: StandInAccount;
  /** Recipients accepted in the last 24 hours (GetAccount's SentLast24Hours). */
  sentLast24Hours: () => number;
  /**
   * Makes a domain (or address) a verified identity of the account, as one verified in SES's
   * console outside the service: for tests that start a stand-in of their own for a team whose
   * domain another stand-in verified.
   */
  verifyIdentity: (name: string) => void;
}> => {
  let sink: EventsSink | undefined;
  let handoff: InboundHandoff | undefined;
  // The rate is held by a gate in a worker thread in front of this server (rate-gate.ts), which
  // times each SendEmail as it arrives, whatever this process is busy with.
  const gate = await startRateGate({
    port: options.port,
    target: await freePort(),
    ratePerSecond: options.ratePerSecond,
    window: options.window ?? 'calendar',
  });
  const stats = gate.stats;
  const notify = (event: unknown) => {
    if (!sink) return;
    const envelope = {
      Type: 'Notification',
      MessageId: randomBytes(16).toString('hex'),
      TopicArn: LOCAL_EVENTS_TOPIC_ARN,
      Message: typeof event === 'string' ? event : JSON.stringify(event),
      Timestamp: new Date().toISOString(),
      SignatureVersion: '1',
    };
    sink(envelope).catch((error) =>
      console.error(`SES stand-in: could not deliver an event: ${(error as Error).message}`),
    );
  };
  const startInbox = require('aws-ses-v2-local').default as (c: { host: string; port: number }) => Promise<Server>;
  const inbox = await startInbox({ host: options.inboxAddress ?? '127.0.0.1', port: options.inboxPort });
  installInboxPage(inbox);
  liftSendLimit(inbox);
  let identities = new Map<string, Identity>();
  // With a state file, the file is the account: read at each call, so stand-ins sharing it agree.
  const load = () => {
    if (options.stateFile && existsSync(options.stateFile))
      identities = new Map(Object.entries(JSON.parse(readFileSync(options.stateFile, 'utf8') || '{}')));
    return identities;
  };
  const persist = () =>
    options.stateFile && writeFileSync(options.stateFile, JSON.stringify(Object.fromEntries(identities)));
  /**
   * Why SES would refuse a send from `from` (SendEmail's 400 MessageRejected): neither the
   * address nor its domain is a verified identity of the account.
   */
  const unverifiedSender = (from: unknown): string | undefined => {
    const address = (/<([^>]+)>\s*$/.exec(String(from ?? ''))?.[1] ?? String(from ?? '')).trim().toLowerCase();
    const domain = address.split('@')[1] ?? '';
    const known = load();
    const verified = (name: string) => known.get(name)?.verificationRequested === true;
    if (verified(address) || verified(domain)) return undefined;
    return `Email address is not verified. The following identities failed the check in region US-EAST-1: ${address}`;
  };
  const view = (name: string, id: Identity) => ({
    IdentityType: 'DOMAIN',
    VerifiedForSendingStatus: id.verificationRequested,
    VerificationStatus: id.verificationRequested ? 'SUCCESS' : 'PENDING',
    DkimAttributes: {
      SigningEnabled: true,
      Status: id.verificationRequested ? 'SUCCESS' : 'PENDING',
      Tokens: id.tokens,
      SigningAttributesOrigin: 'AWS_SES',
    },
    MailFromAttributes: {
      MailFromDomain: `send.${name}`,
      MailFromDomainStatus: 'SUCCESS',
      BehaviorOnMxFailure: 'USE_DEFAULT_VALUE',
    },
    Tags: id.tags ?? [],
  });

  const account: StandInAccount = {
    sendingPaused: false,
    sendingDisabled: false,
    suspended: false,
    configurationSetMissing: false,
    accessDenied: false,
    dropAfterAccept: false,
    maxSendRate: options.ratePerSecond,
    max24HourSend: -1,
  };
  /** Recipients accepted, with when (the last 24 hours'). */
  const sentLog: { at: number; n: number }[] = [];
  const sentLast24Hours = () => {
    const since = Date.now() - 86_400_000;
    while (sentLog.length > 0 && sentLog[0]!.at <= since) sentLog.shift();
    return sentLog.reduce((n, s) => n + s.n, 0);
  };
  /** The refusal SES would answer a SendEmail with in the account's state, if any. */
  const refusal = (): [number, string, string] | undefined => {
    if (account.accessDenied)
      return [403, 'AccessDeniedException', 'User is not authorized to perform ses:SendEmail on this resource.'];
    if (account.suspended) return [400, 'AccountSuspendedException', 'Account is suspended.'];
    if (account.sendingPaused || account.sendingDisabled)
      return [
        400,
        'SendingPausedException',
        "The message can't be sent because the account's ability to send email is currently paused.",
      ];
    if (account.configurationSetMissing) return [404, 'NotFoundException', 'Configuration set does not exist.'];
    if (account.max24HourSend >= 0 && sentLast24Hours() >= account.max24HourSend)
      return [429, 'TooManyRequestsException', 'Daily message quota exceeded.'];
    return undefined;
  };

  const server = createServer(async (req, res) => {
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    const url = new URL(req.url ?? '/', 'http://localhost');
    // The states a test plays: POST a JSON patch of StandInAccount; GET answers them.
    if (url.pathname === '/_stand-in/account') {
      if (req.method === 'POST') Object.assign(account, JSON.parse((await readBody(req)).toString() || '{}'));
      return send(res, 200, account);
    }
    if (req.method === 'GET' && url.pathname === '/v2/email/account') {
      if (account.accessDenied)
        return send(
          res,
          403,
          { message: 'User is not authorized to perform ses:GetAccount.' },
          'AccessDeniedException',
        );
      const shut = account.sendingPaused || account.suspended;
      return send(res, 200, {
        DedicatedIpAutoWarmupEnabled: false,
        EnforcementStatus: shut ? 'SHUTDOWN' : 'HEALTHY',
        ProductionAccessEnabled: true,
        SendingEnabled: !(shut || account.sendingDisabled),
        SendQuota: {
          Max24HourSend: account.max24HourSend,
          MaxSendRate: account.maxSendRate,
          SentLast24Hours: sentLast24Hours(),
        },
      });
    }
    const match = /^\/v2\/email\/identities(?:\/([^/]+))?(\/mail-from)?$/.exec(url.pathname);
    if (match) {
      const body = await readBody(req);
      const request = JSON.parse(body.toString() || '{}');
      const name = match[1] ? decodeURIComponent(match[1]) : (request.EmailIdentity as string);
      const existing = load().get(name);
      if (req.method === 'POST' && !match[1]) {
        if (existing)
          return send(res, 400, { message: `Email identity ${name} already exists.` }, 'AlreadyExistsException');
        const created: Identity = {
          tokens: [0, 1, 2].map(() => randomBytes(16).toString('hex')),
          verificationRequested: false,
          tags: Array.isArray(request.Tags) ? request.Tags : [],
        };
        identities.set(name, created);
        persist();
        const v = view(name, created);
        return send(res, 200, {
          IdentityType: v.IdentityType,
          VerifiedForSendingStatus: false,
          DkimAttributes: v.DkimAttributes,
        });
      }
      if (!existing) return send(res, 404, { message: `Email identity ${name} does not exist.` });
      if (match[2]) return send(res, 200, {});
      if (req.method === 'GET') {
        // Verification "succeeds when asked": the first read after creation is the check.
        existing.verificationRequested = true;
        persist();
        return send(res, 200, view(name, existing));
      }
      if (req.method === 'DELETE') {
        identities.delete(name);
        persist();
        return send(res, 200, {});
      }
    }
    // Tenants and their configuration sets (teams sending as tenants).
    if (/^\/v2\/email\/(tenants|configuration-sets|reputation\/entities)(\/|$)/.test(url.pathname)) {
      const input = JSON.parse((await readBody(req)).toString() || '{}');
      const answer = tenantCall(stats.tenants, req.method ?? '', url.pathname, input, (name) => identities.has(name));
      if (answer) return send(res, answer.status, answer.body, answer.type);
      return send(
        res,
        400,
        { message: `the SES stand-in does not serve ${req.method} ${url.pathname}` },
        'BadRequestException',
      );
    }
    // Everything else goes to the embedded inbox; SendEmail first meets the provider rate.
    const body = await readBody(req);
    const isSend = req.method === 'POST' && url.pathname === '/v2/email/outbound-emails';
    // The account's state answers first (SES refuses a paused or suspended account's every send).
    const refused = isSend ? refusal() : undefined;
    if (refused) return send(res, refused[0], { message: refused[2] }, refused[1]);
    if (isSend) {
      let request: Record<string, any> = {};
      try {
        request = JSON.parse(body.toString() || '{}');
      } catch {
        request = {};
      }
      const invalid = sendRefusal(request);
      if (invalid) return send(res, 400, { message: invalid }, 'BadRequestException');
      const unverified = unverifiedSender(request.FromEmailAddress);
      if (unverified) return send(res, 400, { message: unverified }, 'MessageRejected');
      // A send naming a tenant meets SES's tenant checks.
      if (request.TenantName !== undefined) {
        const tenantRefusal = refuseTenantSend(stats.tenants, request);
        if (tenantRefusal)
          return send(res, tenantRefusal.status, { message: tenantRefusal.message }, tenantRefusal.type);
        const emailId = (request.EmailTags ?? []).find((t: { Name: string }) => t.Name === 'email_id')?.Value;
        if (emailId)
          stats.tenants.sends.set(emailId, {
            tenant: request.TenantName,
            configurationSet: request.ConfigurationSetName,
          });
      }
    }
    const upstream = httpRequest(
      { host: '127.0.0.1', port: options.inboxPort, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        if (!isSend || up.statusCode !== 200) {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        up.on('data', (c: Buffer) => chunks.push(c));
        up.on('end', () => {
          const answer = Buffer.concat(chunks);
          // Accepted: answered, or (the lost-answer switch) the connection dropped instead.
          if (account.dropAfterAccept) res.socket?.destroy();
          else {
            res.writeHead(200, up.headers);
            res.end(answer);
          }
          stats.accepted++;
          const request = JSON.parse(body.toString() || '{}');
          const messageId =
            (JSON.parse(answer.toString() || '{}').MessageId as string) ?? randomBytes(16).toString('hex');
          const sent = request.Content?.Raw?.Data
            ? sesSentMessage(Buffer.from(request.Content.Raw.Data, 'base64'), messageId, regionOf(req))
            : undefined;
          if (sent) keepRaw(messageId, sent.toString('utf8'));
          const recipients: string[] = request.Destination?.ToAddresses ?? [];
          sentLog.push({
            at: Date.now(),
            n:
              recipients.length +
              (request.Destination?.CcAddresses?.length ?? 0) +
              (request.Destination?.BccAddresses?.length ?? 0),
          });
          if (handoff && sent) {
            handoff(String(request.FromEmailAddress ?? ''), recipients, sent).catch((error) =>
              console.error(
                `SES stand-in: could not hand a message to the local inbound listener: ${(error as Error).message}`,
              ),
            );
          }
          const tags = Object.fromEntries(
            (request.EmailTags ?? []).map((t: { Name: string; Value: string }) => [t.Name, [t.Value]]),
          );
          if (tags.email_id?.[0]) stats.acceptedAt.set(tags.email_id[0], Date.now());
          // Events follow the way SES publishes them and SNS delivers them (eventTimings).
          const events: { kind: Outcome; recipient: string }[] = [];
          for (const recipient of recipients) {
            for (const kind of outcomesFor(recipient)) {
              if (kind === 'Send' && recipient !== recipients[0]) continue;
              if (kind !== 'Send' && options.events === 'send') continue;
              events.push({ kind, recipient });
            }
          }
          const twice = recipients.some((r) => TWICE_UNORDERED.test(r));
          for (const { event, at } of eventTimings(events, twice)) {
            setTimeout(
              () =>
                notify(sesEvent(event.kind, messageId, request.FromEmailAddress, recipients, tags, event.recipient)),
              at,
            );
          }
        });
      },
    );
    upstream.on('error', (error) => send(res, 502, { message: error.message }, 'InternalFailure'));
    upstream.end(body);
  });
  // The gate keeps its connections to this server open; so does this server (no idle reset to race).
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(gate.target, '127.0.0.1', resolve));
  const close = (s: Server) =>
    new Promise<void>((resolve) => {
      s.closeAllConnections?.();
      s.close(() => resolve());
    });
  return {
    server,
    inbox,
    stats,
    account,
    sentLast24Hours,
    verifyIdentity: (name) => {
      load().set(name.toLowerCase(), { tokens: [], verificationRequested: true });
      persist();
    },
    setEventsSink: (s) => {
      sink = s;
      // SES's first message to a new SNS event destination: plain text, once.
      notify(SNS_TOPIC_VALIDATION);
    },
    setInboundHandoff: (h) => {
      handoff = h;
    },
    stop: async () => {
      await gate.stop();
      await close(server);
      await close(inbox);
    },
  };
};

/**
 * Starts the rate gate's worker thread on `port`, forwarding to `target`; its stats follow the
 * gate's messages, and setting `stats.window` tells the gate.
 */
const startRateGate = async (
  gateOptions: GateOptions,
): Promise<{ stats: ProviderStats; target: number; stop: () => Promise<void> }> => {
  let window = gateOptions.window;
  // The worker loads the gate's TypeScript through tsx, as this host's own modules are loaded.
  const url = new URL('./rate-gate.ts', import.meta.url).href;
  const worker = new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url)}); });`,
    { eval: true, workerData: gateOptions },
  );
  const stats: ProviderStats = {
    accepted: 0,
    throttled: 0,
    acceptedAt: new Map(),
    admittedAt: [],
    arrivedAt: new Map(),
    tenants: newTenantState(),
    get window() {
      return window;
    },
    set window(next) {
      window = next;
      worker.postMessage({ window: next });
    },
  };
  await new Promise<void>((resolve, reject) => {
    worker.on('message', (m: GateMessage) => {
      if ('listening' in m) resolve();
      else if ('admitted' in m) {
        // Each recipient counts: a multi-recipient message's are spread at the rate from its arrival.
        for (const unit of m.units) if (stats.admittedAt.push(unit) > 100_000) stats.admittedAt.shift();
        if (m.emailId) stats.arrivedAt.set(m.emailId, m.admitted);
      } else if ('throttled' in m) stats.throttled++;
      else reject(new Error(`the SES stand-in's rate gate could not start: ${m.error}`));
    });
    worker.on('error', reject);
  });
  worker.unref();
  return {
    stats,
    target: gateOptions.target,
    stop: async () => {
      await worker.terminate();
    },
  };
};
