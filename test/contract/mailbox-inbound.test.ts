import { describe, expect, it } from 'vitest';
import { getItem } from '@mailstack/core/table/ops';
import { keys } from '@mailstack/core/table/keys';
import { INBOUND_MAX_BYTES } from '@mailstack/core/limits';
import {
  listFolder,
  listReceivedMessages,
  getThread,
  threadMessages,
} from '@mailstack/core/domain/mailboxes/read-messages';
import { attachmentContent, loadMessage } from '@mailstack/core/domain/mailboxes/message';
import { testDeps } from '../support/local.ts';
import { mailboxTeam, mx } from '../support/mailboxes.ts';
import { waitFor } from '../support/wait.ts';
import { eventsOf } from '../support/events.ts';

const inbox = async (teamId: string, mailboxId: string) =>
  (await listFolder(testDeps(), teamId, mailboxId, 'inbox', { limit: 100 })).items;

describe('inbound mail through the local listener', () => {
  it('stores a plain message in the mailbox it is addressed to, in a new thread, with an email.received event', async () => {
    // Prepare
    const t = await mailboxTeam();
    const m = await t.mailbox('support');

    // Act
    const info = await mx().sendMail({
      from: 'Ada <ada@customer.example.org>',
      to: `Support <support@${t.domain}>`,
      subject: 'Hello there',
      text: 'Plain words.',
    });

    // Assess
    // One enhanced status code per reply (RFC 3463): the server's own is not put before ours.
    expect(info.response).toMatch(/^250 2\.0\.0 Accepted: 1 mailbox copy/);
    const [msg] = await inbox(t.team.id, m.id);
    expect(msg).toMatchObject({
      mailboxId: m.id,
      direction: 'inbound',
      folder: 'inbox',
      from: 'Ada <ada@customer.example.org>',
      to: [`Support <support@${t.domain}>`],
      receivedFor: [`support@${t.domain}`],
      subject: 'Hello there',
      text: 'Plain words.\n',
      html: null,
      attachments: [],
      verdicts: { spam: null, virus: null, spf: null, dkim: null, dmarc: null },
      read: false,
    });
    expect(msg!.messageId).toBe(info.messageId.replace(/^<|>$/g, ''));
    const thread = await getThread(testDeps(), t.team.id, m.id, msg!.threadId);
    expect(thread).toMatchObject({ subject: 'Hello there', folder: 'inbox', messageCount: 1, read: false });
    const received = (await eventsOf(t.team.id)).filter((e) => e.type === 'email.received');
    expect(received).toEqual([
      {
        type: 'email.received',
        data: expect.objectContaining({
          email_id: msg!.id,
          from: 'Ada <ada@customer.example.org>',
          to: [`support@${t.domain}`],
          received_for: [`support@${t.domain}`],
          subject: 'Hello there',
          // The header's value, as the receiving API answers it.
          message_id: info.messageId,
          attachments: [],
        }),
      },
    ]);
  });

  it('keeps both bodies of a multipart message and every attachment, readable back byte for byte', async () => {
    // Prepare
    const t = await mailboxTeam();
    const m = await t.mailbox('docs');
    const pdf = Buffer.from('%PDF-1.4 fake but binary \u0000\u0001\u00ff', 'latin1');
    const big = Buffer.alloc(600_000, 7);

    // Act
    await mx().sendMail({
      from: 'bob@customer.example.org',
      to: `docs@${t.domain}`,
      cc: 'carol@customer.example.org',
      subject: 'Files',
      text: 'See attached.',
      html: '<p>See <b>attached</b>.<img src="cid:logo@x"></p>',
      attachments: [
        { filename: 'report.pdf', content: pdf, contentType: 'application/pdf' },
        { filename: 'logo.png', content: Buffer.from('png-bytes'), contentType: 'image/png', cid: 'logo@x' },
        { filename: 'big.bin', content: big, contentType: 'application/octet-stream' },
      ],
    });

    // Assess
    const [msg] = await inbox(t.team.id, m.id);
    expect(msg).toMatchObject({
      text: 'See attached.',
      html: '<p>See <b>attached</b>.<img src="cid:logo@x"></p>',
      cc: ['carol@customer.example.org'],
    });
    // In MIME order: the inline image sits with the HTML (multipart/related) before the attachments.
    expect(msg!.attachments.map((a) => [a.filename, a.contentType, a.contentDisposition, a.contentId, a.size])).toEqual(
      [
        ['logo.png', 'image/png', 'inline', 'logo@x', 9],
        ['report.pdf', 'application/pdf', 'attachment', null, pdf.length],
        ['big.bin', 'application/octet-stream', 'attachment', null, big.length],
      ],
    );
    const d = testDeps();
    const full = await loadMessage(d, t.team.id, msg!.id);
    const named = (name: string) => full.attachments.find((a) => a.filename === name)!.id;
    expect((await attachmentContent(d, full, named('report.pdf'))).content.equals(pdf)).toBe(true);
    expect((await attachmentContent(d, full, named('big.bin'))).content.equals(big)).toBe(true);
    expect((await attachmentContent(d, full, named('logo.png'))).content.toString()).toBe('png-bytes');
    expect((await getThread(d, t.team.id, m.id, msg!.threadId)).hasAttachment).toBe(true);
  });

  it('files a reply in the thread of the message it answers (In-Reply-To / References), and a redelivery only once', async () => {
    // Prepare
    const t = await mailboxTeam();
    const m = await t.mailbox('sales');
    const first = await mx().sendMail({
      from: 'dan@customer.example.org',
      to: `sales@${t.domain}`,
      subject: 'Quote',
      text: 'How much?',
    });
    const unrelated = await mx().sendMail({
      from: 'eve@customer.example.org',
      to: `sales@${t.domain}`,
      subject: 'Other',
      text: 'Hi',
    });

    // Act
    const reply = await mx().sendMail({
      from: 'dan@customer.example.org',
      to: `sales@${t.domain}`,
      subject: 'Re: Quote',
      text: 'Still waiting',
      inReplyTo: first.messageId,
      references: [first.messageId],
    });
    const onlyReferences = await mx().sendMail({
      from: 'dan@customer.example.org',
      to: `sales@${t.domain}`,
      subject: 'Re: Re: Quote',
      text: 'Hello?',
      references: ['<unknown@elsewhere>', reply.messageId],
    });
    await mx().sendMail({
      envelope: { from: 'dan@customer.example.org', to: [`sales@${t.domain}`] },
      raw: `Message-ID: ${reply.messageId}\r\nFrom: dan@customer.example.org\r\nTo: sales@${t.domain}\r\nSubject: Re: Quote\r\n\r\nStill waiting\r\n`,
    });

    // Assess
    const all = await inbox(t.team.id, m.id);
    expect(all).toHaveLength(4);
    const byId = (id: string) => all.find((x) => x.messageId === id.replace(/^<|>$/g, ''))!;
    const thread = byId(first.messageId).threadId;
    expect(byId(reply.messageId).threadId).toBe(thread);
    expect(byId(reply.messageId).inReplyTo).toBe(first.messageId.replace(/^<|>$/g, ''));
    expect(byId(onlyReferences.messageId).threadId).toBe(thread);
    expect(byId(unrelated.messageId).threadId).not.toBe(thread);
    expect((await threadMessages(testDeps(), t.team.id, thread)).map((x) => x.subject)).toEqual([
      'Quote',
      'Re: Quote',
      'Re: Re: Quote',
    ]);
    expect((await getThread(testDeps(), t.team.id, m.id, thread)).messageCount).toBe(3);
  });

  it('refuses a message over the size limit with 552 and stores nothing', async () => {
    // Prepare
    const t = await mailboxTeam();
    const m = await t.mailbox('big');

    // Act
    const sending = mx().sendMail({
      from: 'x@customer.example.org',
      to: `big@${t.domain}`,
      subject: 'Huge',
      text: 'x',
      attachments: [{ filename: 'huge.bin', content: Buffer.alloc(INBOUND_MAX_BYTES, 1) }],
    });

    // Assess
    await expect(sending).rejects.toMatchObject({
      responseCode: 552,
      response: expect.stringMatching(/^552 5\.3\.4 The message is larger/),
    });
    expect(await inbox(t.team.id, m.id)).toEqual([]);
  });

  it("drops mail for an address no mailbox has with a record, and never stores one team's mail in another", async () => {
    // Prepare
    const a = await mailboxTeam();
    const b = await mailboxTeam();
    const ma = await a.mailbox('team');
    const mb = await b.mailbox('team');
    const d = testDeps();
    const day = new Date().toISOString().slice(0, 10);
    const before = Number((await getItem(d, keys.inbound.dropped(day)))?.count ?? 0);

    // Act
    await mx().sendMail({
      from: 'x@customer.example.org',
      to: [`team@${a.domain}`, `nobody@${a.domain}`],
      subject: 'For A',
      text: 'a',
    });
    await mx().sendMail({ from: 'x@customer.example.org', to: `ghost@${b.domain}`, subject: 'For nobody', text: 'b' });

    // Assess
    expect((await inbox(a.team.id, ma.id)).map((x) => x.subject)).toEqual(['For A']);
    expect(await inbox(b.team.id, mb.id)).toEqual([]);
    expect((await listReceivedMessages(d, b.team.id, { limit: 100 })).items).toEqual([]);
    const drops = await getItem(d, keys.inbound.dropped(day));
    expect(Number(drops?.count)).toBeGreaterThanOrEqual(before + 2);
    expect(drops?.count_unknown_mailbox).toBeGreaterThanOrEqual(2);
  });

  it('hands mail the service sends to a local mailbox to the listener: two local mailboxes write to each other', async () => {
    // Prepare
    const a = await mailboxTeam();
    const b = await mailboxTeam();
    await a.mailbox('alice');
    const mb = await b.mailbox('bob');

    // Act
    const sent = await a.resend.emails.send({
      from: `Alice <alice@${a.domain}>`,
      to: `bob@${b.domain}`,
      subject: 'Across teams',
      text: 'Hi Bob',
    });

    // Assess
    expect(sent.error).toBeNull();
    const got = await waitFor(
      () => inbox(b.team.id, mb.id),
      (l) => l.length > 0,
    );
    expect(got.map((x) => [x.from, x.subject, x.text?.trim()])).toEqual([
      [`Alice <alice@${a.domain}>`, 'Across teams', 'Hi Bob'],
    ]);
    expect((await listReceivedMessages(testDeps(), a.team.id, { limit: 100 })).items).toEqual([]);
  });
});
