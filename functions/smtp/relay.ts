import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { SMTPConnection, type SMTPConnectionOptions } from 'smtp-server/lib/smtp-connection.js';
import type { Deps } from '@mailstack/core/runtime/deps';
import { ApiError, isApiError } from '@mailstack/core/errors/api-error';
import { toSmtpReply } from '@mailstack/core/errors/smtp-reply';
import { MAX_BODY_BYTES } from '@mailstack/core/limits';
import { SendEmailRequest } from '@mailstack/core/schemas/emails';
import { validate } from '@mailstack/core/schemas/validate';
import { authenticateKey, refuseAuthentication } from '@mailstack/core/domain/api-keys/authenticate-key';
import { sendEmail } from '@mailstack/core/domain/emails/send-emails';
import { MAX_RECIPIENTS } from '@mailstack/core/limits';
import { runIdempotent } from '@mailstack/core/adapters/aws/idempotency';
import { toSendRequest } from './message-request.ts';

/** The SMTP usernames the relay accepts: the reference service's, so existing configs work, and ours. */
const SMTP_USERNAMES = ['resend', 'mailstack'] as const;

/** Options of the relay; every one not given comes from the runtime configuration. */
export interface RelayOptions {
  /** PEM certificate chain and private key for STARTTLS. */
  readonly tls: { readonly cert: string; readonly key: string };
  /** @default - SMTP_HOSTNAME */
  readonly hostname?: string;
  /** @default - SMTP_MAX_CONNECTIONS_PER_IP */
  readonly maxConnectionsPerIp?: number;
  /** @default - SMTP_IDLE_TIMEOUT_SECONDS */
  readonly idleTimeoutSeconds?: number;
  /** @default - SMTP_SESSION_TIMEOUT_SECONDS */
  readonly sessionTimeoutSeconds?: number;
}

/** A relay: listen, count open sessions, close. */
export interface Relay {
  /** Listens on `port` (0 picks a free one); resolves with the port. A taken port fails with a message. */
  listen(port: number, address: string): Promise<number>;
  /** Sessions open now. */
  readonly connections: number;
  close(): Promise<void>;
}

/** An SMTP error the server sends as is: `text` starts with its enhanced status code. */
export const smtpError = (code: number, text: string): Error => Object.assign(new Error(text), { responseCode: code });

const fromApiError = (error: ApiError): Error => {
  const reply = toSmtpReply(error);
  return smtpError(reply.code, reply.text);
};

const ENHANCED = /^[245]\.\d{1,3}\.\d{1,3} /;

/**
 * smtp-server's connection, keeping the enhanced status code a reply's text already starts with
 * (smtp-server would put one derived from the basic code alone in front of it: `552 5.2.2 5.3.4`).
 */
class OwnCodesConnection extends SMTPConnection {
  override send(code: number, data?: string | string[] | null, context?: string | false): void {
    super.send(code, data, typeof data === 'string' && ENHANCED.test(data) ? false : context);
  }
}

/**
 * The relay's protocol edge beyond its replies' codes: AUTH before STARTTLS is 530 5.7.0
 * (smtp-server says 538), and a session ends after a total time.
 */
class RelayConnection extends OwnCodesConnection {
  constructor(
    server: SMTPServer,
    socket: Socket | TLSSocket,
    options: SMTPConnectionOptions | null | undefined,
    private readonly lifetimeMs: number,
  ) {
    super(server, socket, options ?? {});
  }

  override init(): void {
    super.init();
    const timer = setTimeout(
      () => this.send(421, `4.4.2 Session time limit of ${this.lifetimeMs / 1000} s reached; reconnect to send more.`),
      this.lifetimeMs,
    );
    timer.unref();
    this.once('close', () => clearTimeout(timer));
  }

  override handler_AUTH(command: Buffer, callback: () => void): void {
    if (!this.secure) {
      this.send(
        530,
        '5.7.0 Must issue a STARTTLS command first: the API key (the password) is only accepted over TLS.',
      );
      callback();
      return;
    }
    super.handler_AUTH(command, callback);
  }
}

/** smtp-server whose replies keep the enhanced codes their texts carry (OwnCodesConnection). */
export class OwnCodesServer extends SMTPServer {
  protected connectionFor(
    socket: Socket | TLSSocket,
    options: SMTPConnectionOptions | null | undefined,
  ): SMTPConnection {
    return new OwnCodesConnection(this, socket, options ?? {});
  }

  override connect(socket: Socket | TLSSocket, socketOptions?: SMTPConnectionOptions | null): void {
    const connection = this.connectionFor(socket, socketOptions);
    this.connections.add(connection);
    connection.on('error', (error: Error) => this._onError(error));
    connection.on('connect', (data: any) => this._onClientConnect(data));
    connection.init();
  }
}

/** The relay's server: its connections end after a total time and refuse AUTH before STARTTLS. */
class RelayServer extends OwnCodesServer {
  lifetimeMs = 0;

  protected override connectionFor(
    socket: Socket | TLSSocket,
    options: SMTPConnectionOptions | null | undefined,
  ): SMTPConnection {
    return new RelayConnection(this, socket, options, this.lifetimeMs);
  }
}

/** Reads a DATA stream whole, keeping nothing past `limit` bytes (smtp-server flags the excess); undefined when it was larger. */
export const readMessage = async (stream: SMTPServerDataStream, limit: number): Promise<Buffer | undefined> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
  }
  return stream.sizeExceeded || size > limit ? undefined : Buffer.concat(chunks);
};

/**
 * The SMTP relay (spec §5, SMTP relay credentials): STARTTLS, then AUTH PLAIN or LOGIN with the
 * username `resend` (or `mailstack`) and an API key as the password. Each message is read into
 * the `POST /emails` request and sent through the same use case; every refusal is the catalog's
 * SMTP reply with the API's error name. Runs in the Fargate container and in `npm start`.
 */
export const createRelay = (deps: Deps, options: RelayOptions): Relay => {
  const config = deps.config;
  const perIpLimit = options.maxConnectionsPerIp ?? config.SMTP_MAX_CONNECTIONS_PER_IP;
  const open = new Map<string, number>();
  const counted = new Set<string>();
  // The key secret of each authenticated session: re-checked at every message, so revocation is immediate.
  const secrets = new Map<string, string>();

  const failure = (error: unknown, session: SMTPServerSession): Error => {
    if (isApiError(error)) return fromApiError(error);
    deps.logger.error('smtp relay: unhandled error', { error: error as Error, session: session.id });
    return fromApiError(
      new ApiError(
        'internal_server_error',
        'An unexpected error occurred. It has been logged; retry later (with the same Idempotency-Key header to stay safe).',
      ),
    );
  };

  const deliver = async (raw: Buffer, session: SMTPServerSession): Promise<string> => {
    let message;
    try {
      message = await toSendRequest(
        raw,
        session.envelope.rcptTo.map((r) => r.address),
      );
    } catch (error) {
      throw new ApiError('invalid_payload', `The message could not be parsed as MIME: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const caller = await authenticateKey(deps, secrets.get(session.id) ?? '', session.remoteAddress);
    const request = validate(SendEmailRequest, message.request);
    const send = () =>
      sendEmail(deps, caller, request, message.messageId === undefined ? {} : { messageId: message.messageId });
    const { id } =
      message.idempotencyKey === undefined
        ? await send()
        : await runIdempotent(
            deps,
            { teamId: caller.team.id, scope: 'smtp', key: message.idempotencyKey, payload: request },
            send,
          );
    return id;
  };

  const server = new RelayServer({
    name: options.hostname ?? config.SMTP_HOSTNAME,
    banner: 'mailstack SMTP relay',
    key: options.tls.key,
    cert: options.tls.cert,
    authMethods: ['PLAIN', 'LOGIN'],
    size: MAX_BODY_BYTES,
    socketTimeout: (options.idleTimeoutSeconds ?? config.SMTP_IDLE_TIMEOUT_SECONDS) * 1000,
    closeTimeout: 5_000,
    disableReverseLookup: true,
    hideENHANCEDSTATUSCODES: false,
    hideDSN: true,
    // The provider (SES) has no SMTPUTF8: addresses are 7-bit ASCII, a Unicode domain in Punycode.
    hideSMTPUTF8: true,
    hideREQUIRETLS: true,
    logger: false,
    authRequiredMessage:
      'missing_api_key: Authenticate first: STARTTLS, then AUTH PLAIN or LOGIN with the username `resend` and an API key as the password.',

    onConnect(session, callback) {
      const ip = session.remoteAddress;
      const now = open.get(ip) ?? 0;
      if (now >= perIpLimit) {
        return callback(
          smtpError(
            421,
            `4.7.0 rate_limit_exceeded: ${now} sessions are already open from ${ip} (at most ${perIpLimit}); close one or reuse it, then retry.`,
          ),
        );
      }
      open.set(ip, now + 1);
      counted.add(session.id);
      callback();
    },

    onClose(session) {
      secrets.delete(session.id);
      if (!counted.delete(session.id)) return;
      const left = (open.get(session.remoteAddress) ?? 1) - 1;
      if (left > 0) open.set(session.remoteAddress, left);
      else open.delete(session.remoteAddress);
    },

    onAuth(auth, session, callback) {
      const login = async () => {
        const username = (auth.username ?? '').toLowerCase();
        if (!(SMTP_USERNAMES as readonly string[]).includes(username)) {
          await refuseAuthentication(
            deps,
            session.remoteAddress,
            new ApiError(
              'invalid_api_key',
              `The SMTP username must be \`resend\` (or \`mailstack\`), got ${JSON.stringify(auth.username ?? '')}; the password is the API key.`,
            ),
          );
        }
        const caller = await authenticateKey(deps, auth.password ?? '', session.remoteAddress);
        secrets.set(session.id, auth.password ?? '');
        return caller.keyId;
      };
      login().then(
        (user) => callback(null, { user }),
        (error) => callback(failure(error, session)),
      );
    },

    onRcptTo(address, session, callback) {
      const rcpts = session.envelope.rcptTo;
      const repeat = rcpts.some((r) => r.address.toLowerCase() === address.address.toLowerCase());
      if (!repeat && rcpts.length >= MAX_RECIPIENTS) {
        // RFC 5321 §4.5.3.1.10: 452 for too many recipients; the client sends the rest in another message.
        return callback(
          smtpError(
            452,
            `4.5.3 validation_error: An email may have at most ${MAX_RECIPIENTS} recipients; ${address.address} was not added. Send the others in another message.`,
          ),
        );
      }
      callback();
    },

    onData(stream, session, callback) {
      readMessage(stream, MAX_BODY_BYTES)
        .then((raw) => {
          if (raw === undefined)
            throw new ApiError(
              'payload_too_large',
              `The message is larger than 25 MiB (${MAX_BODY_BYTES} bytes), attachments included.`,
            );
          return deliver(raw, session);
        })
        .then(
          (id) => callback(null, `2.0.0 OK ${id}`),
          (error) => callback(failure(error, session)),
        );
    },
  });
  server.lifetimeMs = (options.sessionTimeoutSeconds ?? config.SMTP_SESSION_TIMEOUT_SECONDS) * 1000;
  server.on('error', (error) => deps.logger.warn('smtp relay: connection error', { error }));

  return {
    listen: (port, address) =>
      new Promise((resolve, reject) => {
        const onError = (error: NodeJS.ErrnoException) =>
          reject(
            error.code === 'EADDRINUSE'
              ? new Error(
                  `port ${port} (SMTP relay) is already in use: stop the other process (another \`npm start\`?) or set SMTP_PORT to a free port`,
                )
              : error,
          );
        server.server.once('error', onError);
        server.listen(port, address, () => {
          server.server.off('error', onError);
          const bound = server.server.address();
          resolve(typeof bound === 'object' && bound ? bound.port : port);
        });
      }),
    get connections() {
      return server.connections.size;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
