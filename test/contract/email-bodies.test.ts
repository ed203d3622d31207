import { describe, expect, it } from 'vitest';
import { call, testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { inboxMail, inboxMessagesStartingWith } from '../support/inbox.ts';
import { emailReaches, waitFor } from '../support/wait.ts';
import { loadSegmentContacts } from '../support/audience.ts';
import { keys } from '@mailstack/core/table/keys';
import { getItem } from '@mailstack/core/table/ops';
import { itemSize } from '@mailstack/core/table/item-size';
import { unpackJson } from '@mailstack/core/table/packed';

/** An HTML body of about `bytes`, unique per call: a receipt's worth of styled paragraphs. */
const receipt = (bytes: number, greeting = '') => {
  const line = '<p style="font-family:Arial,sans-serif;color:#333;margin:0 0 8px">Item, 1 x $12.00</p>\n';
  return `<html><body><p>${crypto.randomUUID()} ${greeting}</p>${line.repeat(Math.ceil(bytes / line.length))}</body></html>`;
};

const row = (teamId: string, id: string) => getItem(testDeps(), keys.email.item(teamId, id));
const bodyItem = (teamId: string, id: string) => getItem(testDeps(), keys.email.body(teamId, id));

describe("an email's bodies apart from its row (each status change bills one write unit)", () => {
  it('keeps a 6 KB HTML and 2 KB text in the body item, reads them back on GET, the list and the sent message, and deletes them with the email', async () => {
    // Prepare
    const t = await sendingTeam();
    const html = receipt(6_000);
    const text = 'Your receipt.\n'.repeat(150);
    const subject = `Receipt ${crypto.randomUUID()}`;

    // Act
    const { data, error } = await t.resend.emails.send({
      from: t.from,
      to: 'delivered@resend.dev',
      subject,
      html,
      text,
    });

    // Assess
    expect(error).toBeNull();
    const id = data!.id;
    expect((await emailReaches(t.resend, id, ['delivered', 'failed'], 30_000)).last_event).toBe('delivered');
    const stored = (await row(t.team.id, id))!;
    expect(stored).toMatchObject({ bodies_apart: true, html: null, text: null, status: 'delivered' });
    // The row every status change rewrites, in the table and in its listing index, fits one write unit.
    expect(itemSize(stored)).toBeLessThanOrEqual(1024);
    // The body item keeps them compressed: written once, billed by its compressed size.
    const kept = (await bodyItem(t.team.id, id))!;
    expect(kept.type).toBe('email_body');
    expect(unpackJson(kept.bodies as Uint8Array)).toEqual({ html, text });
    expect(itemSize(kept)).toBeLessThan((html.length + text.length) / 4);

    const got = await t.resend.emails.get(id);
    expect(got.data).toMatchObject({ id, html, text });
    const listed = await t.resend.emails.list({ limit: 10 });
    expect(listed.data!.data.find((e) => e.id === id)).toMatchObject({ html, text });
    const mail = await inboxMail(subject);
    expect(mail.body.html).toContain(html.slice(0, 200));
    expect(mail.body.text.replace(/\r\n/g, '\n')).toContain('Your receipt.\nYour receipt.');

    const removed = await call('DELETE', `/emails/${id}`, { key: t.secret });
    expect(removed.status).toBe(200);
    expect(await row(t.team.id, id)).toBeUndefined();
    expect(await bodyItem(t.team.id, id)).toBeUndefined();
  }, 60_000);

  it('answers a canceled email with its bodies from the body item', async () => {
    const t = await sendingTeam();
    const html = receipt(3_000);
    const { data } = await t.resend.emails.send({
      from: t.from,
      to: 'delivered@resend.dev',
      subject: 'Later',
      html,
      scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(await row(t.team.id, data!.id)).toMatchObject({ bodies_apart: true, status: 'scheduled' });
    const canceled = await call('POST', `/emails/${data!.id}/cancel`, { key: t.secret });
    expect(canceled.status).toBe(200);
    expect(canceled.json).toMatchObject({ id: data!.id, last_event: 'canceled', html });
  }, 30_000);

  it('keeps short bodies on the row (one item, one read)', async () => {
    const t = await sendingTeam();
    const { data } = await t.resend.emails.send({
      from: t.from,
      to: 'delivered@resend.dev',
      subject: 'Short',
      html: '<p>Hi</p>',
    });
    const stored = (await row(t.team.id, data!.id))!;
    expect(stored).toMatchObject({ html: '<p>Hi</p>' });
    expect(stored.bodies_apart).toBeUndefined();
    expect(await bodyItem(t.team.id, data!.id)).toBeUndefined();
    expect((await t.resend.emails.get(data!.id)).data!.html).toBe('<p>Hi</p>');
  }, 30_000);

  it("sends each broadcast recipient's rendered body from its body item, personalised", async () => {
    // Prepare
    const t = await sendingTeam();
    const tag = t.team.id.slice(-12);
    const segment = (await t.resend.segments.create({ name: 'Receipts' })).data!.id;
    await loadSegmentContacts(t.team.id, segment, [
      { email: `ann-${tag}@example.com`, first_name: 'Ann' },
      { email: `bob-${tag}@example.com`, first_name: 'Bob' },
    ]);
    const subject = `Digest ${tag}`;
    const created = await t.resend.broadcasts.create({
      segmentId: segment,
      from: t.from,
      subject,
      html: receipt(5_000, 'Hello {{{FIRST_NAME|there}}}'),
    });

    // Act
    expect((await t.resend.broadcasts.send(created.data!.id)).error).toBeNull();

    // Assess
    const mails = await inboxMessagesStartingWith(subject, 2);
    const ann = mails.find((m) => m.destination.to[0] === `ann-${tag}@example.com`)!;
    expect(ann.body.html).toContain('Hello Ann');
    expect(mails.find((m) => m.destination.to[0] === `bob-${tag}@example.com`)!.body.html).toContain('Hello Bob');
    const listed = await waitFor(
      async () => (await t.resend.emails.list({ limit: 10 })).data!.data,
      (list) => list.length === 2,
      { what: 'the broadcast emails listed' },
    );
    for (const e of listed) {
      const stored = (await row(t.team.id, e.id))!;
      expect(stored).toMatchObject({ bodies_apart: true, html: null, broadcast_id: created.data!.id });
      expect(itemSize(stored)).toBeLessThanOrEqual(1024);
      expect((e as { html?: string }).html).toContain(e.to[0]!.startsWith('ann-') ? 'Hello Ann' : 'Hello Bob');
    }
  }, 60_000);
});
