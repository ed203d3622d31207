import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { listFolder } from '@mailstack/core/domain/mailboxes/read-messages';
import { grantMailboxLicense } from '@mailstack/core/domain/mailboxes/grant-mailbox-license';
import { LAMBDA_RESPONSE_MAX_BYTES, MAX_INLINE_DOWNLOAD_BYTES } from '@mailstack/core/limits';
import { testDeps } from '../support/local.ts';
import { mailboxTeam, mx } from '../support/mailboxes.ts';
import { sendingTeam } from '../support/sending.ts';
import { waitFor } from '../support/wait.ts';

/*
 * Files past what a Lambda can answer (6 MB, base64 adds a third): the local host answers such a
 * result 502, as API Gateway does, so these downloads pass only when served by a link to the
 * object instead of in the answer.
 */

/** Fetches a download link as a client does (following its redirect), and the redirect itself. */
const fetchDownload = async (url: string) => {
  const first = await fetch(url, { redirect: 'manual' });
  const followed = await fetch(url);
  return { first, followed, bytes: Buffer.from(await followed.arrayBuffer()) };
};

describe('downloads and bodies past a Lambda answer (6 MB)', () => {
  it('serves an 8 MB received message and its 6 MB attachment by redirect to a short-lived link, and the SDK forwards it', async () => {
    // Prepare
    const t = await mailboxTeam();
    const m = await t.mailbox('big');
    const photo = randomBytes(6_000_000);
    await mx().sendMail({
      from: 'ada@customer.example.org',
      to: m.address,
      subject: 'Holiday photos',
      text: 'Attached.',
      attachments: [{ filename: 'photo 1.jpg', content: photo, contentType: 'image/jpeg' }],
    });
    const id = (
      await waitFor(
        () => t.resend.emails.receiving.list(),
        (r) => (r.data?.data.length ?? 0) > 0,
      )
    ).data!.data[0]!.id;
    const other = await mailboxTeam();
    const target = await other.mailbox('archive');
    // The forward sends the message on as an email: its attachments count against the plan's total.
    await t.setPlan('scale');

    // Act
    const got = await t.resend.emails.receiving.get(id);
    const raw = await fetchDownload(got.data!.raw!.download_url);
    const attachment = (await t.resend.emails.receiving.attachments.list({ emailId: id })).data!.data[0]!;
    const file = await fetchDownload(attachment.download_url);
    const forwarded = await t.resend.emails.receiving.forward({
      emailId: id,
      from: `Big <${m.address}>`,
      to: target.address,
    });

    // Assess
    expect(got.error).toBeNull();
    expect(raw.first.status).toBe(302);
    expect(raw.first.headers.get('location')).toContain('X-Amz-Expires=');
    expect(raw.followed.status).toBe(200);
    expect(raw.bytes.length).toBeGreaterThan(8_000_000);
    expect(raw.bytes.toString('latin1')).toContain('Subject: Holiday photos');
    expect(raw.followed.headers.get('content-disposition')).toBe(`attachment; filename*=UTF-8''${id}.eml`);
    expect(file.first.status).toBe(302);
    expect(file.bytes.equals(photo)).toBe(true);
    expect(file.followed.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''photo%201.jpg");
    expect(forwarded.error).toBeNull();
    const arrived = await waitFor(
      () => listFolder(testDeps(), other.team.id, target.id, 'inbox', { limit: 10 }),
      (r) => r.items.length >= 1,
      { what: 'the forwarded message', timeoutMs: 60_000 },
    );
    expect(arrived.items[0]!.attachments.map((a) => [a.filename, a.size])).toEqual([['photo 1.jpg', photo.length]]);
  }, 120_000);

  it('serves a sent attachment past the inline size by redirect, byte for byte', async () => {
    // Prepare
    const t = await sendingTeam({ plan: 'scale' });
    const archive = randomBytes(MAX_INLINE_DOWNLOAD_BYTES + 1_000_000);
    const sent = await t.resend.emails.send({
      from: t.from,
      to: 'delivered@resend.dev',
      subject: 'Archive',
      text: 'Attached.',
      attachments: [{ filename: 'archive.bin', content: archive.toString('base64') }],
    });
    expect(sent.error).toBeNull();

    // Act
    const listed = await t.resend.emails.attachments.list({ emailId: sent.data!.id });
    const file = await fetchDownload(listed.data!.data[0]!.download_url);

    // Assess
    expect(Buffer.byteLength(archive.toString('base64'))).toBeGreaterThan(LAMBDA_RESPONSE_MAX_BYTES * 0.8);
    expect(file.first.status).toBe(302);
    expect(file.followed.status).toBe(200);
    expect(file.bytes.equals(archive)).toBe(true);
  }, 60_000);

  it("lists a thread of three 2.5 MB messages with the bodies one answer carries: the third's text reads null", async () => {
    // Prepare
    const t = await mailboxTeam();
    await grantMailboxLicense(testDeps(), t.team.id, {
      seats: 5,
      storageBytes: 50 * 1024 * 1024,
      recipientAllowance: 10,
    });
    const address = `desk@${t.domain}`;
    const inboxId = (await t.resend.inboxes.create({ emailAddress: address })).data!.id;
    const line = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, a long quarterly report.\n';
    const body = (n: number) => `Part ${n}\n${line.repeat(Math.ceil(2_500_000 / line.length))}`;
    const first = await mx().sendMail({
      from: 'ada@customer.example.org',
      to: address,
      subject: 'Report',
      text: body(1),
    });
    for (const n of [2, 3])
      await mx().sendMail({
        from: 'ada@customer.example.org',
        to: address,
        subject: 'Re: Report',
        text: body(n),
        inReplyTo: first.messageId,
        references: [first.messageId],
      });
    const thread = (
      await waitFor(
        () => t.resend.inboxes.threads.list({ inboxId }),
        (r) => r.data?.data[0]?.email_count === 3,
        { what: 'the thread of three', timeoutMs: 60_000 },
      )
    ).data!.data[0]!;

    // Act
    const emails = await t.resend.inboxes.threads.emails.list({ emailAddress: address, threadId: thread.id });

    // Assess
    expect(emails.error).toBeNull();
    expect(emails.data!.data.map((e) => e.text?.slice(0, 7) ?? null)).toEqual(['Part 1\n', 'Part 2\n', null]);
  }, 120_000);
});
