import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type { Deps } from '../../../runtime/deps.ts';
import { hasUnsubscribePair } from '../rules/headers.ts';
import type { EmailItem } from '../email.ts';
import { trackHtml } from '../../tracking/rewrite.ts';
import { attachmentParts, withBodies } from '../email-content.ts';

/** The service's unsubscribe page for a topic send; replaced by the audience work's signed link when present. */
const UNSUBSCRIBE_PLACEHOLDERS = ['{{{UNSUBSCRIBE_URL}}}', '{{{RESEND_UNSUBSCRIBE_URL}}}'];

/** Builds the MIME message of an email with nodemailer's composer. */
export const composeMessage = async (
  deps: Deps,
  row: EmailItem,
  unsubscribeUrl: string | null,
  tracking: { open: boolean; click: boolean; origin: string } = { open: false, click: false, origin: '' },
): Promise<Buffer> => {
  const e = await withBodies(deps, row, { strict: true });
  const fill = (body: string | null) =>
    body && unsubscribeUrl ? UNSUBSCRIBE_PLACEHOLDERS.reduce((b, p) => b.replaceAll(p, unsubscribeUrl), body) : body;
  // On a tracked domain the HTML body gets rewritten links and the open pixel (the text part is left alone).
  const html = fill(e.html);
  const trackedHtml =
    html && (tracking.open || tracking.click)
      ? await trackHtml(deps, html, { teamId: e.team_id, emailId: e.id, ...tracking })
      : html;
  const headers: Record<string, string> = { ...(e.headers ?? {}) };
  if (unsubscribeUrl && !hasUnsubscribePair(e.headers)) {
    headers['List-Unsubscribe'] = `<${unsubscribeUrl}>`;
    headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  }
  const composer = new MailComposer({
    from: e.from,
    to: e.to,
    ...(e.cc.length ? { cc: e.cc } : {}),
    ...(e.reply_to.length ? { replyTo: e.reply_to } : {}),
    subject: e.subject,
    ...(e.html !== null ? { html: trackedHtml! } : {}),
    ...(e.text !== null ? { text: fill(e.text)! } : {}),
    messageId: e.message_id,
    date: new Date(e.created_at),
    headers,
    attachments: (await attachmentParts(deps, e)).map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      content: a.content,
    })),
  });
  return composer.compile().build();
};
