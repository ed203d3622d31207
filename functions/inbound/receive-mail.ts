import type { SESEvent } from 'aws-lambda';
import { flushMetrics, getDeps } from '@mailstack/core/runtime/deps';
import { receiveInbound, type InboundOutcome } from '@mailstack/core/domain/mailboxes/receive-message';
import { INBOUND_RAW_PREFIX } from '@mailstack/core/content-keys';

/**
 * The inbound Lambda: the SES receipt rule stored the raw message in the content bucket under
 * `inbound/<SES message id>` and then invokes this (asynchronously; SES's invocation is retried
 * on error, and storing is idempotent per Message-ID). Each mailbox recipient gets its copy; the
 * SES spam, virus, SPF, DKIM and DMARC verdicts are kept on it.
 */
export const handler = async (event: SESEvent): Promise<{ stored: number; dropped: number }> => {
  const deps = getDeps();
  let stored = 0;
  let dropped = 0;
  for (const record of event.Records) {
    const { mail, receipt } = record.ses;
    const key = `${INBOUND_RAW_PREFIX}${mail.messageId}`;
    const raw = await deps.content.get(key);
    if (!raw)
      throw new Error(
        `inbound message ${mail.messageId}: ${key} is not in the content bucket (the receipt rule's S3 action stores it before invoking this function)`,
      );
    const outcome: InboundOutcome = await receiveInbound(deps, raw, {
      recipients: receipt.recipients,
      mailFrom: mail.source,
      verdicts: {
        spam: receipt.spamVerdict?.status ?? null,
        virus: receipt.virusVerdict?.status ?? null,
        spf: receipt.spfVerdict?.status ?? null,
        dkim: receipt.dkimVerdict?.status ?? null,
        dmarc: receipt.dmarcVerdict?.status ?? null,
      },
    });
    stored += outcome.stored.length;
    dropped += outcome.dropped.length;
  }
  flushMetrics(deps);
  return { stored, dropped };
};
