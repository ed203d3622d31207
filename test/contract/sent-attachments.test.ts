import { describe, expect, it } from 'vitest';
import { createDeps } from '@mailstack/core/runtime/deps';
import { download } from '@mailstack/core/domain/mailboxes/received-email';
import { local, testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { expectReferenceShape } from '../support/openapi.ts';

const PDF = Buffer.from('%PDF-1.4 \u0000\u0001\u00fe binary', 'latin1');
const CSV = Buffer.from('id,total\n42,19.99\n');

/** A sending team that sent one email with two attachments. */
const withSentAttachments = async () => {
  const t = await sendingTeam();
  const sent = await t.resend.emails.send({
    from: t.from,
    to: 'delivered@resend.dev',
    subject: 'Invoice 42',
    text: 'Attached.',
    attachments: [
      { filename: 'invoice.pdf', content: PDF, contentType: 'application/pdf' },
      { filename: 'lines.csv', content: CSV.toString('base64') },
    ],
  });
  expect(sent.error).toBeNull();
  return { ...t, emailId: sent.data!.id };
};

const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

describe('the attachments of a sent email, through the official SDK (emails.attachments)', () => {
  it('lists and reads them in the order sent, with download links serving the bytes sent', async () => {
    // Prepare
    const t = await withSentAttachments();

    // Act
    const listed = await t.resend.emails.attachments.list({ emailId: t.emailId });
    const first = listed.data!.data[0]!;
    const one = await t.resend.emails.attachments.get({ emailId: t.emailId, id: first.id });
    const again = await t.resend.emails.attachments.list({ emailId: t.emailId });
    const paged = await t.resend.emails.attachments.list({ emailId: t.emailId, limit: 1 });
    const next = await t.resend.emails.attachments.list({
      emailId: t.emailId,
      limit: 1,
      after: paged.data!.data[0]!.id,
    });

    // Assess
    expect(listed.error).toBeNull();
    expectReferenceShape('GET', '/emails/{email_id}/attachments', 200, listed.data);
    expect(listed.data).toMatchObject({ object: 'list', has_more: false });
    expect(listed.data!.data.map((a) => [a.filename, a.size, a.content_type, a.content_disposition])).toEqual([
      ['invoice.pdf', PDF.length, 'application/pdf', 'attachment'],
      ['lines.csv', CSV.length, 'text/csv', 'attachment'],
    ]);
    // An attachment's id is the same on every read.
    expect(again.data!.data.map((a) => a.id)).toEqual(listed.data!.data.map((a) => a.id));
    expect(one.error).toBeNull();
    expectReferenceShape('GET', '/emails/{email_id}/attachments/{attachment_id}', 200, one.data);
    expect(one.data).toMatchObject({ object: 'attachment', id: first.id, filename: 'invoice.pdf' });
    expect(Date.parse(one.data!.expires_at) - Date.now()).toBeGreaterThan(3500_000);
    expect(paged.data).toMatchObject({ has_more: true });
    expect(next.data!.data.map((a) => a.filename)).toEqual(['lines.csv']);
    const bytes = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());
    expect((await bytes(one.data!.download_url)).equals(PDF)).toBe(true);
    expect((await bytes(listed.data!.data[1]!.download_url)).equals(CSV)).toBe(true);
  });

  it("answers 404 for another team's email, an unknown attachment, a tampered link and an expired one", async () => {
    // Prepare
    const t = await withSentAttachments();
    const other = await sendingTeam();
    const listed = await t.resend.emails.attachments.list({ emailId: t.emailId });
    const link = listed.data!.data[0]!.download_url;

    // Act
    const foreignList = await other.resend.emails.attachments.list({ emailId: t.emailId });
    const foreignGet = await other.resend.emails.attachments.get({ emailId: t.emailId, id: listed.data!.data[0]!.id });
    const unknown = await t.resend.emails.attachments.get({ emailId: t.emailId, id: crypto.randomUUID() });
    const tampered = await fetch(link.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')));
    const base = testDeps();
    const anHourLater = createDeps(base.config, { clock: { now: () => Date.now() + 3601_000 } });

    // Assess
    expect(foreignList.error).toMatchObject({ name: 'not_found' });
    expect(foreignGet.error).toMatchObject({ name: 'not_found' });
    expect(unknown.error).toMatchObject({ name: 'not_found' });
    expect(tampered.status).toBe(404);
    expect(await download(base, tokenOf(link))).toBeDefined();
    expect(await download(anHourLater, tokenOf(link))).toBeUndefined();
    expect(link.startsWith(`${local().baseUrl}/downloads/`)).toBe(true);
  });
});
