import { describe, expect, it } from 'vitest';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type Mail from 'nodemailer/lib/mailer/index.js';
import { toSendRequest } from '../../../functions/smtp/message-request.ts';

const raw = (mail: Mail.Options): Promise<Buffer> => new MailComposer(mail).compile().build();

describe('toSendRequest', () => {
  it('reads a message into the POST /emails request, the envelope deciding who receives it', async () => {
    // Prepare
    const message = await raw({
      from: '"Doe, Jane" <jane@acme.com>',
      to: ['a@example.com', 'outside@example.com'],
      cc: 'c@example.com',
      bcc: 'b@example.com',
      replyTo: 'reply@acme.com',
      subject: 'Hello',
      text: 'Hi',
      html: '<p>Hi</p>',
      messageId: '<m1@acme.com>',
      headers: { 'X-Entity-Ref-ID': 'abc', 'Idempotency-Key': 'k-1' },
      attachments: [{ filename: 'a.txt', content: 'attached' }],
    });

    // Act
    const out = await toSendRequest(message, ['A@example.com', 'c@example.com', 'b@example.com', 'hidden@example.com']);

    // Assess
    expect(out).toEqual({
      request: {
        from: '"Doe, Jane" <jane@acme.com>',
        to: ['a@example.com'],
        cc: ['c@example.com'],
        bcc: ['b@example.com', 'hidden@example.com'],
        reply_to: ['reply@acme.com'],
        subject: 'Hello',
        text: 'Hi',
        html: '<p>Hi</p>',
        headers: { 'X-Entity-Ref-ID': 'abc' },
        attachments: [
          { filename: 'a.txt', content: Buffer.from('attached').toString('base64'), content_type: 'text/plain' },
        ],
      },
      messageId: '<m1@acme.com>',
      idempotencyKey: 'k-1',
    });
  });

  it('stores a single-part body as the API would: without the line ending that closes the message', async () => {
    const text = await toSendRequest(await raw({ from: 'a@acme.com', to: 'b@example.com', text: 'Hello' }), [
      'b@example.com',
    ]);
    expect(text.request.text).toBe('Hello');
    const html = await toSendRequest(await raw({ from: 'a@acme.com', to: 'b@example.com', html: '<b>h</b>' }), [
      'b@example.com',
    ]);
    expect(html.request).toMatchObject({ html: '<b>h</b>' });
    // A line ending inside the body is content and stays.
    const two = await toSendRequest(await raw({ from: 'a@acme.com', to: 'b@example.com', text: 'one\ntwo' }), [
      'b@example.com',
    ]);
    expect(two.request.text).toBe('one\ntwo');
  });

  it("takes the reference service's Resend-Idempotency-Key header, and gives an empty body to a message without one", async () => {
    const message = Buffer.from('From: a@acme.com\r\nTo: b@example.com\r\nResend-Idempotency-Key: k-2\r\n\r\n');
    const out = await toSendRequest(message, ['b@example.com']);
    expect(out.idempotencyKey).toBe('k-2');
    expect(out.request).toMatchObject({ text: '', subject: '' });
    expect(out.request.headers).toBeUndefined();
  });

  it("passes an inline cid: image with its content id, for the API's attachment rule to judge", async () => {
    const message = await raw({
      from: 'a@acme.com',
      to: 'b@example.com',
      subject: 's',
      html: '<img src="cid:logo">',
      attachments: [{ filename: 'logo.png', content: 'png', cid: 'logo' }],
    });
    const out = await toSendRequest(message, ['b@example.com']);
    expect(out.request.attachments).toEqual([expect.objectContaining({ filename: 'logo.png', content_id: 'logo' })]);
  });
});
