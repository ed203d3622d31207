import { describe, expect, it } from 'vitest';
import { sendingTeam } from '../support/sending.ts';
import { inboxMail } from '../support/inbox.ts';
import { emailReaches } from '../support/wait.ts';

describe('the send pipeline, end to end on the local host', () => {
  it.each([
    ['success@simulator.amazonses.com', 'delivered'],
    ['delivered@resend.dev', 'delivered'],
    ['ooto@simulator.amazonses.com', 'delivered'],
    ['bounce@simulator.amazonses.com', 'bounced'],
    ['bounced@resend.dev', 'bounced'],
    ['complaint@simulator.amazonses.com', 'complained'],
    ['complained@resend.dev', 'complained'],
    ['suppressionlist@simulator.amazonses.com', 'bounced'],
  ])('takes an email to %s to %s', async (to, final) => {
    const t = await sendingTeam();
    const { data, error } = await t.resend.emails.send({ from: t.from, to, subject: 'Simulator', text: 'hello' });
    expect(error).toBeNull();
    expect((await emailReaches(t.resend, data!.id, [final])).last_event).toBe(final);
  });

  it('suppresses a hard-bounced address so the next send to it alone is refused', async () => {
    const t = await sendingTeam();
    const first = await t.resend.emails.send({ from: t.from, to: 'bounced@resend.dev', subject: 'One', text: 'x' });
    await emailReaches(t.resend, first.data!.id, ['bounced']);
    const again = await t.resend.emails.send({ from: t.from, to: 'bounced@resend.dev', subject: 'Two', text: 'x' });
    expect(again.error).toMatchObject({
      statusCode: 422,
      name: 'all_recipients_suppressed',
      message: 'All recipients are suppressed',
    });
    const mixed = await t.resend.emails.send({
      from: t.from,
      to: ['bounced@resend.dev', 'delivered@resend.dev'],
      subject: 'Three',
      text: 'x',
    });
    expect(mixed.error).toBeNull();
    expect((await t.resend.emails.get(mixed.data!.id)).data!.to).toEqual(['delivered@resend.dev']);
  }, 40_000);

  it('suppresses a complaining address', async () => {
    const t = await sendingTeam();
    const first = await t.resend.emails.send({ from: t.from, to: 'complained@resend.dev', subject: 'One', text: 'x' });
    await emailReaches(t.resend, first.data!.id, ['complained']);
    const again = await t.resend.emails.send({ from: t.from, to: 'complained@resend.dev', subject: 'Two', text: 'x' });
    expect(again.error).toMatchObject({ statusCode: 422, name: 'all_recipients_suppressed' });
  }, 40_000);

  it('hands the MIME message to the provider: it lands in the local inbox with its headers and attachment', async () => {
    const t = await sendingTeam();
    const subject = `Inbox ${crypto.randomUUID()}`;
    const { data } = await t.resend.emails.send({
      from: t.from,
      to: 'Jane <jane@example.com>',
      cc: 'cc@example.com',
      bcc: 'bcc@example.com',
      replyTo: 'reply@example.com',
      subject,
      html: '<p>Hello</p>',
      text: 'Hello',
      headers: { 'X-Entity-Ref-ID': 'abc' },
      attachments: [{ filename: 'hello.txt', content: Buffer.from('attached').toString('base64') }],
    });
    await emailReaches(t.resend, data!.id, ['delivered']);
    const mail = await inboxMail(subject);
    expect(mail.destination.to.join()).toContain('jane@example.com');
    expect(mail.attachments.map((a: any) => a.filename)).toContain('hello.txt');
  }, 30_000);

  it('sends a scheduled email at its time and lets a scheduled one be rescheduled or canceled before', async () => {
    const t = await sendingTeam();
    const soon = await t.resend.emails.send({
      from: t.from,
      to: 'delivered@resend.dev',
      subject: 'Soon',
      text: 'x',
      scheduledAt: new Date(Date.now() + 2000).toISOString(),
    });
    expect((await t.resend.emails.get(soon.data!.id)).data).toMatchObject({ last_event: 'scheduled' });
    const later = await t.resend.emails.send({
      from: t.from,
      to: 'delivered@resend.dev',
      subject: 'Later',
      text: 'x',
      scheduledAt: 'in 1 hour',
    });
    const moved = new Date(Date.now() + 7200_000).toISOString();
    const updated = await t.resend.emails.update({ id: later.data!.id, scheduledAt: moved });
    expect(updated.data).toMatchObject({ object: 'email', id: later.data!.id });
    expect((await t.resend.emails.get(later.data!.id)).data!.scheduled_at).toBe(moved);
    const canceled = await t.resend.emails.cancel(later.data!.id);
    expect(canceled.data).toMatchObject({ object: 'email', id: later.data!.id });
    expect((await t.resend.emails.get(later.data!.id)).data!.last_event).toBe('canceled');
    expect((await emailReaches(t.resend, soon.data!.id, ['delivered'])).last_event).toBe('delivered');
    const tooLate = await t.resend.emails.cancel(soon.data!.id);
    expect(tooLate.error).toMatchObject({ statusCode: 409, name: 'conflict' });
  }, 40_000);
});
