import { randomUUID } from 'node:crypto';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { describe, expect, it } from 'vitest';
import { local } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { inboxMail } from '../support/inbox.ts';
import { agent, agentMailbox, newDraft } from '../support/mailboxes.ts';
import { emailReaches } from '../support/wait.ts';

/**
 * SES takes 7-bit ASCII addresses only (no SMTPUTF8): an ASCII local part, a domain in Punycode
 * (https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_Destination.html). The stand-in
 * refuses the rest as SES does; the API refuses a non-ASCII local part when it accepts the email
 * and sends a Unicode domain in its Punycode form.
 */
describe('addresses the provider can take', () => {
  it('the SES stand-in refuses non-ASCII addresses and tags outside SES’s charset with 400 BadRequestException', async () => {
    const ses = new SESv2Client({
      region: 'us-east-1',
      endpoint: local().env.SES_ENDPOINT,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    // From a verified identity of the account (a team's verified domain): SES refuses any other sender.
    const from = `sender@${(await sendingTeam()).domain}`;
    const send = (to: string, tag = 'ok_value-1') =>
      ses
        .send(
          new SendEmailCommand({
            FromEmailAddress: from,
            Destination: { ToAddresses: [to] },
            Content: { Raw: { Data: Buffer.from(`From: ${from}\r\nSubject: x\r\n\r\nx`) } },
            EmailTags: [{ Name: 'email_id', Value: tag }],
          }),
        )
        .then(
          () => 'accepted',
          (error: Error) => `${error.name}: ${error.message}`,
        );

    expect(await send('josé@example.com')).toBe('BadRequestException: Local address contains control or whitespace');
    expect(await send('reader@bücher.de')).toBe('BadRequestException: Domain contains illegal character');
    expect(await send('reader@example.com', 'a.b')).toMatch(/^BadRequestException: Invalid tag value <a\.b>/);
    expect(await send('reader@xn--bcher-kva.de')).toBe('accepted');
  });

  it('refuses a non-ASCII local part at accept (422 naming the field) and sends a Unicode domain in Punycode', async () => {
    // Prepare
    const t = await sendingTeam();
    const subject = `IDN ${randomUUID().slice(0, 8)}`;

    // Act
    const localPart = await t.resend.emails.send({ from: t.from, to: 'josé@example.com', subject, text: 'x' });
    const inCc = await t.resend.emails.send({
      from: t.from,
      to: 'reader@example.com',
      cc: ['ok@example.com', 'zoë@example.com'],
      subject,
      text: 'x',
    });
    const fromLocal = await t.resend.emails.send({
      from: `José <josé@${t.domain}>`,
      to: 'a@example.com',
      subject,
      text: 'x',
    });
    const idn = await t.resend.emails.send({ from: t.from, to: 'Reader <reader@bücher.de>', subject, text: 'x' });

    // Assess
    expect(localPart.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(localPart.error?.message).toContain('`to`');
    expect(localPart.error?.message).toContain('ASCII');
    expect(inCc.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(inCc.error?.message).toContain('`cc[1]`');
    expect(fromLocal.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(fromLocal.error?.message).toContain('`from`');
    expect(idn.error).toBeNull();
    const sent = await emailReaches(t.resend, idn.data!.id, ['delivered', 'failed']);
    expect(sent).toMatchObject({ last_event: 'delivered', to: ['Reader <reader@xn--bcher-kva.de>'] });
    expect((await inboxMail(subject, 10_000)).raw).toContain('To: Reader <reader@xn--bcher-kva.de>');
  }, 60_000);

  it('a mailbox draft to a non-ASCII local part is refused (400), one to a Unicode domain is saved in Punycode', async () => {
    const t = await agentMailbox();
    const bad = await agent(t.sendKey, 'POST', '/drafts', newDraft({ to: ['søren@example.com'] }));
    const idn = await agent(t.sendKey, 'POST', '/drafts', newDraft({ to: ['reader@bücher.de'] }));
    expect(bad).toMatchObject({ status: 400 });
    expect(JSON.stringify(bad.body)).toContain('ASCII');
    expect(idn.status).toBe(200);
    expect(JSON.stringify(idn.body)).toContain('reader@xn--bcher-kva.de');
  });
});
