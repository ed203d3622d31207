import type { Deps } from '@mailstack/core/runtime/deps';
import { INBOUND_MAX_BYTES } from '@mailstack/core/limits';
import { receiveInbound } from '@mailstack/core/domain/mailboxes/receive-message';
import { ruleTakes } from '@mailstack/core/ports/inbound-recipients';
import { OwnCodesServer, readMessage, smtpError } from '../../functions/smtp/relay.ts';

/** The local inbound listener: what SES receiving is on AWS (the MX of the mailbox domains). */
export interface InboundListener {
  /** Listens on `port` (0 picks a free one) at 127.0.0.1 unless told; resolves with the port. */
  listen(port: number, address?: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * An SMTP server without authentication or TLS, as an MX is: it takes mail for the recipients
 * the inbound receipt rule names (the domains the teams hold, as SES would; any other is refused
 * with 550 at RCPT TO) and hands each message to the same use case the inbound Lambda calls (mailboxes store it;
 * recipients no mailbox has are dropped with a record). No provider scanned the mail, so its
 * spam and virus verdicts are absent. Mail over INBOUND_MAX_BYTES is refused with 552.
 */
export const createInboundListener = (deps: Deps, options: { hostname?: string } = {}): InboundListener => {
  const server = new OwnCodesServer({
    name: options.hostname ?? 'localhost',
    banner: 'mailstack inbound (local MX)',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: INBOUND_MAX_BYTES,
    hideENHANCEDSTATUSCODES: false,
    hideDSN: true,
    hideREQUIRETLS: true,
    disableReverseLookup: true,
    logger: false,
    closeTimeout: 2_000,
    // As SES receiving does: a recipient the receipt rule does not name is refused at RCPT TO.
    onRcptTo(address, _session, callback) {
      const rule = deps.inboundRecipients;
      if (!rule) return callback();
      rule
        .current()
        .then((current) =>
          ruleTakes(current, address.address)
            ? callback()
            : callback(
                smtpError(
                  550,
                  `5.1.1 <${address.address}>: no team of this service holds this domain, so its mail is not received here.`,
                ),
              ),
        )
        .catch((error: Error) => callback(error));
    },
    onData(stream, session, callback) {
      readMessage(stream, INBOUND_MAX_BYTES)
        .then(async (raw) => {
          if (!raw)
            return callback(
              smtpError(
                552,
                `5.3.4 The message is larger than the ${INBOUND_MAX_BYTES} bytes a mailbox accepts; nothing was stored.`,
              ),
            );
          const envelope = {
            recipients: session.envelope.rcptTo.map((r) => r.address),
            mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          };
          const outcome = await receiveInbound(deps, raw, envelope);
          callback(
            null,
            `2.0.0 Accepted: ${outcome.stored.length} mailbox copy(ies) stored, ${outcome.dropped.length} recipient(s) without a mailbox dropped`,
          );
        })
        .catch((error: Error) => {
          deps.logger.error('inbound listener: could not store a message', { error });
          callback(smtpError(451, '4.3.0 The message could not be stored now; retry later.'));
        });
    },
  });
  server.on('error', (error) => deps.logger.error('inbound listener error', { error }));
  return {
    listen: (port, address = '127.0.0.1') =>
      new Promise((resolve, reject) => {
        server.server.once('error', (error: NodeJS.ErrnoException) =>
          reject(
            error.code === 'EADDRINUSE'
              ? new Error(
                  `port ${port} is already in use: set INBOUND_SMTP_PORT to a free port (or stop the other process)`,
                )
              : error,
          ),
        );
        server.listen(port, address, () => {
          const bound = server.server.address();
          resolve(typeof bound === 'object' && bound ? bound.port : port);
        });
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
