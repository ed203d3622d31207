import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { sendingTeam } from '../support/sending.ts';
import { inboxMail } from '../support/inbox.ts';
import { emailReaches } from '../support/wait.ts';
import { CONTENT_INLINE_MAX_BYTES } from '@mailstack/core/limits';
import { testDeps } from '../support/local.ts';
import { getEmail } from '@mailstack/core/domain/emails/get-email';

/** An HTML body of `bytes` ASCII bytes (a paragraph repeated), different for every call. */
const htmlOf = (bytes: number) => {
  const head = `<html><body><p>${crypto.randomUUID()}</p>`;
  const tail = '</body></html>';
  const filler = '<p>Lorem ipsum dolor sit amet, newsletter paragraph with an inlined image.</p>\n';
  const middle = filler
    .repeat(Math.ceil((bytes - head.length - tail.length) / filler.length))
    .slice(0, bytes - head.length - tail.length);
  return head + middle + tail;
};

describe('message content off the row (content store)', () => {
  it('accepts a 450 KB HTML email (past the 400 KB row limit) and answers GET /emails/{id} with its HTML intact', async () => {
    const t = await sendingTeam();
    const html = htmlOf(450_000);
    const { data, error } = await t.resend.emails.send({
      from: t.from,
      to: 'delivered@resend.dev',
      subject: 'Long newsletter',
      html,
    });
    expect(error).toBeNull();
    const got = await t.resend.emails.get(data!.id);
    expect(got.error).toBeNull();
    expect(got.data!.html).toBe(html);
    expect(got.data!.text).toBeNull();
  }, 30_000);

  it('answers GET /emails/{id} with html null once its body object is gone (S3 answers a role without ListBucket 403)', async () => {
    const t = await sendingTeam();
    const { data } = await t.resend.emails.send({
      from: t.from,
      to: 'delivered@resend.dev',
      subject: 'Expired body',
      html: htmlOf(CONTENT_INLINE_MAX_BYTES + 1_000),
      text: 'kept on the row',
    });
    expect((await emailReaches(t.resend, data!.id, ['delivered', 'failed'], 30_000)).last_event).toBe('delivered');
    const row = await getEmail(testDeps(), t.team.id, data!.id);
    expect(row.content_refs?.html).toBeTruthy();
    // As the bucket's lifecycle expires it; the local S3 engine then answers 403 AccessDenied, as S3 does.
    await testDeps().content.delete(row.content_refs!.html!);
    const got = await t.resend.emails.get(data!.id);
    expect(got.error).toBeNull();
    expect(got.data).toMatchObject({ id: data!.id, html: null, text: 'kept on the row' });
  }, 60_000);

  it('answers GET /emails/{id} of a 7 MB HTML email (past a Lambda answer) with html null and its text', async () => {
    const t = await sendingTeam();
    const { data, error } = await t.resend.emails.send({
      from: t.from,
      to: 'delivered@resend.dev',
      subject: 'Too large to answer',
      html: htmlOf(7_000_000),
      text: 'The short version.',
    });
    expect(error).toBeNull();
    const got = await t.resend.emails.get(data!.id);
    expect(got.error).toBeNull();
    expect(got.data).toMatchObject({ id: data!.id, html: null, text: 'The short version.' });
  }, 60_000);

  it('lists emails whose bodies together pass a Lambda answer with 200: the later bodies read null', async () => {
    const t = await sendingTeam();
    // Each body under 32 KiB (kept in the table), yet every quote takes 4 bytes of the answer as encoded.
    const quotes = '"'.repeat(32_000);
    const sent = await t.resend.batch.send(
      Array.from({ length: 25 }, (_, n) => ({
        from: t.from,
        to: 'delivered@resend.dev',
        subject: `Quoted ${n}`,
        html: `<p>${quotes}</p>`,
        text: quotes,
      })),
    );
    expect(sent.error).toBeNull();
    const listed = await t.resend.emails.list({ limit: 100 });
    expect(listed.error).toBeNull();
    const rows = listed.data!.data as unknown as { html: string | null; text: string | null }[];
    expect(rows).toHaveLength(25);
    expect(rows[0]).toMatchObject({ html: `<p>${quotes}</p>`, text: quotes });
    expect(rows.at(-1)).toMatchObject({ html: null, text: null });
  }, 60_000);

  it('keeps small bodies on the row and a text body past the threshold in the store, both read back', async () => {
    const t = await sendingTeam();
    const text = 'plain '.repeat(Math.ceil((CONTENT_INLINE_MAX_BYTES + 10) / 6));
    const { data } = await t.resend.emails.send({
      from: t.from,
      to: 'delivered@resend.dev',
      subject: 'Text',
      html: '<p>short</p>',
      text,
    });
    const got = await t.resend.emails.get(data!.id);
    expect(got.data).toMatchObject({ html: '<p>short</p>', text });
  }, 30_000);

  it('accepts, delivers and returns a 5 MB HTML email with a 10 MB attachment on a Scale team (attachment byte-identical in the inbox)', async () => {
    const t = await sendingTeam({ plan: 'scale' });
    const html = htmlOf(5_000_000);
    const attachment = randomBytes(10_000_000);
    const subject = `Large ${crypto.randomUUID()}`;
    const { data, error } = await t.resend.emails.send({
      from: t.from,
      to: 'delivered@resend.dev',
      subject,
      html,
      attachments: [
        { filename: 'archive.bin', content: attachment.toString('base64'), contentType: 'application/octet-stream' },
      ],
    });
    expect(error).toBeNull();
    expect((await emailReaches(t.resend, data!.id, ['delivered', 'failed'], 60_000)).last_event).toBe('delivered');
    const mail = await inboxMail(subject);
    const [received] = mail.attachments as { filename: string; content: string }[];
    expect(received!.filename).toBe('archive.bin');
    expect(Buffer.from(received!.content, 'base64').equals(attachment)).toBe(true);
    const got = await t.resend.emails.get(data!.id);
    expect(got.data!.html).toBe(html);
  }, 120_000);
});
