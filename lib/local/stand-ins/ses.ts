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

/** Options of the SES stand-in. */
export interface SesStandInOptions {
  /** The SES endpoint port the runtime talks to. */
  readonly port: number;
  /** The port of the embedded aws-ses-v2-local (the local inbox). */
  readonly inboxPort: number;
  /** File that keeps identities across restarts; in memory when absent. */
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
const SIMULATOR: Record<string, readonly ('Send' | 'Delivery' | 'Bounce' | 'Complaint' | 'Suppressed')[]> = {
  'success@simulator.amazonses.com': ['Send', 'Delivery'],
  'bounce@simulator.amazonses.com': ['Send', 'Bounce'],
  'complaint@simulator.amazonses.com': ['Send', 'Delivery', 'Complaint'],
  'suppressionlist@simulator.amazonses.com': ['Send', 'Suppressed'],
  'ooto@simulator.amazonses.com': ['Send', 'Delivery'],
  'delivered@resend.dev': ['Send', 'Delivery'],
  'bounced@resend.dev': ['Send', 'Bounce'],
  'complained@resend.dev': ['Send', 'Delivery', 'Complaint'],
};
const outcomesFor = (address: string) =>
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
      Message: JSON.stringify(event),
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
  const identities = new Map<string, Identity>(
    options.stateFile && existsSync(options.stateFile)
      ? Object.entries(JSON.parse(readFileSync(options.stateFile, 'utf8')))
      : [],
  );
  const persist = () =>
    options.stateFile && writeFileSync(options.stateFile, JSON.stringify(Object.fromEntries(identities)));
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
  });

  const server = createServer(async (req, res) => {
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = /^\/v2\/email\/identities(?:\/([^/]+))?(\/mail-from)?$/.exec(url.pathname);
    if (match) {
      const body = await readBody(req);
      const name = match[1]
        ? decodeURIComponent(match[1])
        : (JSON.parse(body.toString() || '{}').EmailIdentity as string);
      const existing = identities.get(name);
      if (req.method === 'POST' && !match[1]) {
        if (existing)
          return send(res, 400, { message: `Email identity ${name} already exists.` }, 'AlreadyExistsException');
        const created = { tokens: [0, 1, 2].map(() => randomBytes(16).toString('hex')), verificationRequested: false };
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
    // A send naming a tenant meets SES's tenant checks (the raw message is base64: no quote in it).
    if (isSend && body.includes('"TenantName"')) {
      const input = JSON.parse(body.toString() || '{}');
      const refusal = refuseTenantSend(stats.tenants, input);
      if (refusal) return send(res, refusal.status, { message: refusal.message }, refusal.type);
      const emailId = (input.EmailTags ?? []).find((t: { Name: string }) => t.Name === 'email_id')?.Value;
      if (emailId)
        stats.tenants.sends.set(emailId, { tenant: input.TenantName, configurationSet: input.ConfigurationSetName });
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
          res.writeHead(200, up.headers);
          res.end(answer);
          stats.accepted++;
          const request = JSON.parse(body.toString() || '{}');
          const messageId =
            (JSON.parse(answer.toString() || '{}').MessageId as string) ?? randomBytes(16).toString('hex');
          if (request.Content?.Raw?.Data)
            keepRaw(messageId, Buffer.from(request.Content.Raw.Data, 'base64').toString('utf8'));
          const recipients: string[] = request.Destination?.ToAddresses ?? [];
          if (handoff && request.Content?.Raw?.Data) {
            handoff(
              String(request.FromEmailAddress ?? ''),
              recipients,
              Buffer.from(request.Content.Raw.Data, 'base64'),
            ).catch((error) =>
              console.error(
                `SES stand-in: could not hand a message to the local inbound listener: ${(error as Error).message}`,
              ),
            );
          }
          const tags = Object.fromEntries(
            (request.EmailTags ?? []).map((t: { Name: string; Value: string }) => [t.Name, [t.Value]]),
          );
          if (tags.email_id?.[0]) stats.acceptedAt.set(tags.email_id[0], Date.now());
          // Events follow the way SES sends them: shortly after, in order, one notification each.
          let delay = 20;
          for (const recipient of recipients) {
            for (const kind of outcomesFor(recipient)) {
              if (kind === 'Send' && recipient !== recipients[0]) continue;
              if (kind !== 'Send' && options.events === 'send') continue;
              setTimeout(
                () => notify(sesEvent(kind, messageId, request.FromEmailAddress, recipients, tags, recipient)),
                (delay += 15),
              );
            }
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
    setEventsSink: (s) => {
      sink = s;
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
        if (stats.admittedAt.push(m.admitted) > 100_000) stats.admittedAt.shift();
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
