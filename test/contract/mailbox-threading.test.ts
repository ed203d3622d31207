import { randomUUID } from 'node:crypto';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { describe, expect, it } from 'vitest';
import { local } from '../support/local.ts';
import { inboxMail, inboxMessageTo } from '../support/inbox.ts';
import { agent, agentMailbox, mx, newDraft } from '../support/mailboxes.ts';
import { waitFor } from '../support/wait.ts';
import { sendingTeam } from '../support/sending.ts';

/** A header of a message in the local inbox (as the SES stand-in delivered it). */
const headerOf = (mail: any, name: string): string | undefined =>
  mail.headers.find((h: { name: string }) => h.name.toLowerCase() === name.toLowerCase())?.value;

describe('mailbox threading under the Message-ID SES writes', () => {
  it('the SES stand-in replaces the Message-ID and Date as SES does, region-qualified outside us-east-1', async () => {
    const subject = `Regional ${randomUUID().slice(0, 8)}`;
    const ses = new SESv2Client({
      region: 'eu-west-1',
      endpoint: local().env.SES_ENDPOINT,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    // From a verified identity of the account (a team's verified domain): SES refuses any other sender.
    const from = `sender@${(await sendingTeam()).domain}`;
    const raw = `From: ${from}\r\nTo: reader@example.com\r\nSubject: ${subject}\r\nMessage-ID: <ours@example.com>\r\nDate: Thu, 1 Jan 2015 00:00:00 +0000\r\n\r\nHello\r\n`;
    const out = await ses.send(
      new SendEmailCommand({
        FromEmailAddress: from,
        Destination: { ToAddresses: ['reader@example.com'] },
        Content: { Raw: { Data: Buffer.from(raw) } },
      }),
    );
    const mail = await inboxMail(subject);
    expect(headerOf(mail, 'Message-ID')).toBe(`<${out.MessageId}@eu-west-1.amazonses.com>`);
    expect(mail.raw).not.toContain('ours@example.com');
    expect(headerOf(mail, 'Date')).not.toContain('2015');
    expect(mail.raw).toContain('Hello');
  });

  it('files a reply to a mailbox’s first message in its thread, and later messages quote the Message-ID the recipient saw', async () => {
    // Prepare: a mailbox sends a first message to someone outside.
    const t = await agentMailbox();
    const reader = `reader-${randomUUID().slice(0, 8)}@customer.example.org`;
    const subject = `Proposal ${randomUUID().slice(0, 8)}`;
    const draft = await agent(t.sendKey, 'POST', '/drafts', newDraft({ to: [reader], subject }));
    const sent = await agent(t.sendKey, 'POST', '/send', { id: draft.body.id, expectedRevision: 0 });
    expect(sent).toMatchObject({ status: 202, body: { status: 'admitted' } });
    const delivered = await inboxMessageTo(reader, subject);
    const seen = headerOf(delivered, 'Message-ID')!;

    // Act: the recipient replies to what they received, as a mail client does.
    await mx().sendMail({
      from: reader,
      to: t.m.address,
      subject: `Re: ${subject}`,
      text: 'Sounds good.',
      messageId: `<reply-${randomUUID()}@customer.example.org>`,
      inReplyTo: seen,
      references: [seen],
    });
    const items = await waitFor(
      () => agent(t.sendKey, 'GET', '/items?folder=inbox'),
      (r) => r.body.items?.some((i: any) => i.subject === `Re: ${subject}`),
      { what: 'the reply in the inbox' },
    );
    const reply = items.body.items.find((i: any) => i.subject === `Re: ${subject}`);
    const sentId = (await agent(t.sendKey, 'GET', '/items?folder=sent')).body.items[0].id;
    const sentCopy = await waitFor(
      () => agent(t.sendKey, 'GET', `/items?id=${sentId}`),
      (r) => r.body.messageId === seen.replace(/^<|>$/g, ''),
      { what: 'the sent copy showing the Message-ID the recipient saw' },
    );
    // A follow-up from the mailbox to its own first message quotes the id the recipient saw.
    const followUp = await agent(
      t.sendKey,
      'POST',
      '/drafts',
      newDraft({ to: [reader], subject: `Re: ${subject} (2)`, sourceItemId: sentId }),
    );
    await agent(t.sendKey, 'POST', '/send', { id: followUp.body.id, expectedRevision: followUp.body.revision });
    const second = await inboxMessageTo(reader, `Re: ${subject} (2)`);

    // Assess: SES wrote its own Message-ID; the reply joined the thread of the first message.
    expect(seen).toMatch(/^<[^@>]+@email\.amazonses\.com>$/);
    expect((await t.resend.emails.get(sent.body.emailId)).data?.message_id).toBe(seen);
    expect(reply.threadId).toBe(sentCopy.body.threadId);
    expect(headerOf(second, 'In-Reply-To')).toBe(seen);
    expect(headerOf(second, 'References')).toContain(seen);
    expect(headerOf(second, 'Message-ID')).not.toBe(seen);
  }, 60_000);
});
