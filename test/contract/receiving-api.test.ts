import { describe, expect, it } from 'vitest';
import { listFolder } from '@mailstack/core/domain/mailboxes/read-messages';
import { call, local, testDeps } from '../support/local.ts';
import { mailboxTeam, mx } from '../support/mailboxes.ts';
import { waitFor } from '../support/wait.ts';
import { expectReferenceShape } from '../support/openapi.ts';

const PDF = Buffer.from('%PDF-1.4 \u0000\u0001\u00fe binary', 'latin1');

/** A team with a mailbox that has received one message with an inline image and an attachment. */
const withReceivedMail = async () => {
  const t = await mailboxTeam();
  const m = await t.mailbox('inbox', 'Inbox');
  await mx().sendMail({
    from: 'Ada <ada@customer.example.org>',
    to: `inbox@${t.domain}`,
    cc: 'bob@customer.example.org',
    replyTo: 'replies@customer.example.org',
    subject: 'Invoice 42',
    text: 'Attached.',
    html: '<p>Attached.</p><img src="cid:logo@ada">',
    attachments: [
      { filename: 'logo.png', content: Buffer.from('PNGDATA'), contentType: 'image/png', cid: 'logo@ada' },
      { filename: 'invoice.pdf', content: PDF, contentType: 'application/pdf' },
    ],
  });
  return { ...t, m };
};

describe('the receiving API through the official SDK', () => {
  it('lists and reads received email, with bodies, headers and a raw download link', async () => {
    // Prepare
    const t = await withReceivedMail();

    // Act
    const listed = await t.resend.emails.receiving.list();
    const id = listed.data!.data[0]!.id;
    const got = await t.resend.emails.receiving.get(id);
    const cid = await t.resend.emails.receiving.get(id, { html_format: 'cid' });

    // Assess
    expect(listed.error).toBeNull();
    expectReferenceShape('GET', '/emails/receiving', 200, listed.data);
    expect(listed.data).toMatchObject({ object: 'list', has_more: false });
    expect(listed.data!.data).toHaveLength(1);
    expect(listed.data!.data[0]).toMatchObject({
      from: 'Ada <ada@customer.example.org>',
      to: [`inbox@${t.domain}`],
      cc: ['bob@customer.example.org'],
      bcc: null,
      reply_to: ['replies@customer.example.org'],
      subject: 'Invoice 42',
      received_for: [`inbox@${t.domain}`],
      // The Message-ID header's value, angle brackets included, as the reference shows it.
      message_id: expect.stringMatching(/^<[^<>\s]+@[^<>\s]+>$/),
    });
    expect(listed.data!.data[0]).not.toHaveProperty('html');
    expect(got.error).toBeNull();
    expectReferenceShape('GET', '/emails/receiving/{email_id}', 200, got.data);
    expect(got.data).toMatchObject({ object: 'email', id, text: 'Attached.', subject: 'Invoice 42' });
    expect(got.data!.html).toBe(
      `<p>Attached.</p><img src="data:image/png;base64,${Buffer.from('PNGDATA').toString('base64')}">`,
    );
    expect(cid.data!.html).toBe('<p>Attached.</p><img src="cid:logo@ada">');
    expect(got.data!.headers).toMatchObject({ subject: 'Invoice 42', from: 'Ada <ada@customer.example.org>' });
    expect(
      got.data!.attachments.map((a) => [a.filename, a.content_type, a.content_disposition, a.content_id, a.size]),
    ).toEqual([
      ['logo.png', 'image/png', 'inline', 'logo@ada', 7],
      ['invoice.pdf', 'application/pdf', 'attachment', null, PDF.length],
    ]);
    // The raw link works without a key, for an hour.
    const raw = await fetch(got.data!.raw!.download_url);
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('application/octet-stream');
    expect(await raw.text()).toContain('Subject: Invoice 42');
    expect(Date.parse(got.data!.raw!.expires_at) - Date.now()).toBeGreaterThan(3500_000);
  });

  it('lists attachments and serves each one byte for byte through its signed link; a tampered link is 404', async () => {
    // Prepare
    const t = await withReceivedMail();
    const id = (await t.resend.emails.receiving.list()).data!.data[0]!.id;

    // Act
    const list = await t.resend.emails.receiving.attachments.list({ emailId: id });
    const pdfRow = list.data!.data.find((a) => a.filename === 'invoice.pdf')!;
    const one = await t.resend.emails.receiving.attachments.get({ emailId: id, id: pdfRow.id });
    const bytes = Buffer.from(await (await fetch(one.data!.download_url)).arrayBuffer());
    const page = await t.resend.emails.receiving.attachments.list({ emailId: id, limit: 1 });

    // Assess
    expect(list.error).toBeNull();
    expectReferenceShape('GET', '/emails/receiving/{email_id}/attachments', 200, list.data);
    expect(list.data!.data.map((a) => a.filename)).toEqual(['logo.png', 'invoice.pdf']);
    // content_id is a string, on the inline attachment only (the reference types it so).
    expect(list.data!.data.map((a) => a.content_id)).toEqual(['logo@ada', undefined]);
    expect(list.data!.data[1]).not.toHaveProperty('content_id');
    expect(one.error).toBeNull();
    expectReferenceShape('GET', '/emails/receiving/{email_id}/attachments/{attachment_id}', 200, one.data);
    expect(one.data).toMatchObject({
      object: 'attachment',
      id: pdfRow.id,
      filename: 'invoice.pdf',
      content_type: 'application/pdf',
      size: PDF.length,
      content_disposition: 'attachment',
    });
    expect(bytes.equals(PDF)).toBe(true);
    expect(page.data).toMatchObject({ has_more: true, data: [{ filename: 'logo.png' }] });
    const tampered = one.data!.download_url.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await fetch(tampered)).status).toBe(404);
    expect((await fetch(`${local().baseUrl}/downloads/not-a-token`)).status).toBe(404);
    expect(
      (await t.resend.emails.receiving.attachments.get({ emailId: id, id: '0198a5a0-0000-7000-8000-000000000000' }))
        .error,
    ).toMatchObject({ statusCode: 404, name: 'not_found' });
  });

  it('forwards a received email with the SDK (its raw link, then POST /emails), passed through or wrapped: it reaches another mailbox', async () => {
    // Prepare
    const t = await mailboxTeam();
    const m = await t.mailbox('desk');
    await mx().sendMail({
      from: 'ada@customer.example.org',
      to: m.address,
      subject: 'Contract',
      text: 'Signed copy attached.',
      attachments: [{ filename: 'contract.pdf', content: PDF, contentType: 'application/pdf' }],
    });
    const other = await mailboxTeam();
    const target = await other.mailbox('archive');
    const id = (await t.resend.emails.receiving.list()).data!.data[0]!.id;

    // Act
    const passed = await t.resend.emails.receiving.forward({
      emailId: id,
      from: `Desk <${m.address}>`,
      to: target.address,
    });
    const wrapped = await t.resend.emails.receiving.forward({
      emailId: id,
      from: `Desk <${m.address}>`,
      to: target.address,
      passthrough: false,
      text: 'FYI',
    });

    // Assess
    expect(passed.error).toBeNull();
    expect(wrapped.error).toBeNull();
    const arrived = await waitFor(
      () => listFolder(testDeps(), other.team.id, target.id, 'inbox', { limit: 10 }),
      (r) => r.items.length >= 2,
    );
    expect(arrived.items.map((x) => [x.subject, x.attachments.map((a) => a.filename)]).sort()).toEqual([
      ['Contract', ['contract.pdf']],
      // the wrapped copy carries the original as message/rfc822, whose parts the parser lists
      ['Fwd: Contract', ['contract.pdf']],
    ]);
    const wrappedCopy = arrived.items.find((x) => x.subject === 'Fwd: Contract')!;
    expect(wrappedCopy.text).toContain('FYI');
  });

  it("answers 404 for another team's received email and lists none of it", async () => {
    // Prepare
    const t = await withReceivedMail();
    const other = await mailboxTeam();
    const id = (await t.resend.emails.receiving.list()).data!.data[0]!.id;

    // Act / Assess
    expect((await other.resend.emails.receiving.get(id)).error).toMatchObject({ statusCode: 404, name: 'not_found' });
    expect((await other.resend.emails.receiving.attachments.list({ emailId: id })).error).toMatchObject({
      statusCode: 404,
      name: 'not_found',
    });
    expect((await other.resend.emails.receiving.list()).data!.data).toEqual([]);
    // A sending-access key reaches no received mail.
    const sending = await t.addKey('sending_access');
    expect((await sending.resend.emails.receiving.list()).error).toMatchObject({
      statusCode: 403,
      name: 'restricted_api_key',
    });
    expect((await call('GET', `/emails/receiving/${id}`, { key: sending.secret })).status).toBe(403);
  });
});
