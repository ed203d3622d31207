import { connect, type Socket } from 'node:net';
import nodemailer from 'nodemailer';
import { local } from './local.ts';

/** Options of a relay client. */
export interface RelayClientOptions {
  /** @default - 'resend' */
  readonly user?: string;
  /** The client's source address (127.0.0.x), to keep per-address counters apart. */
  readonly localAddress?: string;
  /** The relay's port. @default - the test run's relay */
  readonly port?: number;
  /** Keep one session open across messages (nodemailer's pool). @default - false */
  readonly pool?: boolean;
  /** The certificate to trust (PEM). @default - the test run's relay certificate */
  readonly ca?: string;
  /** @default - 'PLAIN' (nodemailer's choice when offered) */
  readonly authMethod?: 'PLAIN' | 'LOGIN';
}

/**
 * A nodemailer transport on the local relay, as a user configures one: STARTTLS required, the
 * relay's self-signed certificate trusted, username `resend`, an API key as the password.
 */
export const relayTransport = (password: string, options: RelayClientOptions = {}) =>
  nodemailer.createTransport({
    host: '127.0.0.1',
    port: options.port ?? local().smtp.port,
    secure: false,
    requireTLS: true,
    tls: { ca: [options.ca ?? local().smtp.certificate] },
    auth: { user: options.user ?? 'resend', pass: password },
    ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    ...(options.pool ? { pool: true, maxConnections: 1 } : {}),
    ...(options.authMethod ? { authMethod: options.authMethod } : {}),
  });

/** The email id of a `250 2.0.0 OK <id>` reply. */
export const acceptedId = (response: string): string => {
  const match = /^250 2\.0\.0 OK (\S+)$/.exec(response.trim());
  if (!match) throw new Error(`not an acceptance: ${response}`);
  return match[1]!;
};

/** A plain-text SMTP conversation, for what nodemailer will not do (AUTH without TLS, idle sessions). */
export const rawSession = async (port: number, localAddress?: string) => {
  const socket: Socket = connect({ port, host: '127.0.0.1', ...(localAddress ? { localAddress } : {}) });
  let buffer = '';
  const waiters: (() => void)[] = [];
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    for (const w of waiters.splice(0)) w();
  });
  socket.on('close', () => {
    for (const w of waiters.splice(0)) w();
  });
  /** The next complete reply (last line `NNN text`), or what was left when the server closed. */
  const reply = async (timeoutMs = 10_000): Promise<string> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = /^(?:\d{3}-.*\r\n)*\d{3}(?: .*)?\r\n/.exec(buffer);
      if (match) {
        buffer = buffer.slice(match[0].length);
        return match[0].trim();
      }
      if (socket.destroyed || Date.now() > deadline) {
        const rest = buffer;
        buffer = '';
        return rest.trim();
      }
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 100);
      });
    }
  };
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  return {
    reply,
    command: async (line: string) => {
      socket.write(`${line}\r\n`);
      return reply();
    },
    closed,
    end: () => socket.destroy(),
  };
};
