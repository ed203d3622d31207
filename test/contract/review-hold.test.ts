import { describe, expect, it } from 'vitest';
import { releaseHeldEmails } from '@mailstack/core/domain/emails/release-held-emails';
import { needsReview } from '@mailstack/core/domain/emails/rules/review-hold';
import { updateTeam } from '@mailstack/core/domain/teams/update-team';
import { testDeps, afterLookupStaleness } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { emailReaches } from '../support/wait.ts';

describe('the review hold of a new team', () => {
  it('accepts an email imitating a bank notice with 200, keeps it queued, and sends it when review ends', async () => {
    const t = await sendingTeam();
    const held = await t.resend.emails.send({
      from: t.from,
      to: 'delivered@resend.dev',
      subject: 'Your bank account has been locked',
      text: 'x',
    });
    expect(held.error).toBeNull();
    const ordinary = await t.resend.emails.send({
      from: t.from,
      to: 'delivered@resend.dev',
      subject: 'Your order shipped',
      text: 'x',
    });
    expect((await emailReaches(t.resend, ordinary.data!.id, ['delivered'])).last_event).toBe('delivered');
    expect((await t.resend.emails.get(held.data!.id)).data!.last_event).toBe('queued');
    expect(await releaseHeldEmails(testDeps(), t.team.id)).toBe(1);
    expect((await emailReaches(t.resend, held.data!.id, ['delivered'])).last_event).toBe('delivered');
  }, 30_000);

  it('holds every email of a new team whose payment fraud screening blocked', async () => {
    const t = await sendingTeam();
    await updateTeam(testDeps(), t.team.id, { paymentBlocked: true });
    await afterLookupStaleness();
    const held = await t.resend.emails.send({
      from: t.from,
      to: 'delivered@resend.dev',
      subject: 'Welcome',
      text: 'x',
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect((await t.resend.emails.get(held.data!.id)).data!.last_event).toBe('queued');
  });

  it.each([
    ['a carrier notice in the subject', null, 'DHL: parcel delivery failed', true],
    ['a tax office', null, 'IRS tax refund pending', true],
    ['an account-security notice', 'Security Team', 'Unusual sign-in to your account', true],
    ['a bank in the sender name', 'Chase Online', 'Statement ready', true],
    ['ordinary mail', 'Acme', 'Your invoice for March', false],
    ['a word that only contains a trigger', 'Upstream', 'Bankside café opening', false],
  ])('screens %s', (_case, senderName, subject, expected) => {
    expect(
      needsReview({
        teamCreatedAt: new Date().toISOString(),
        paymentBlocked: false,
        senderName,
        subject,
        now: Date.now(),
      }),
    ).toBe(expected);
  });

  it('lets a team older than 30 days through', () => {
    const old = new Date(Date.now() - 31 * 86_400_000).toISOString();
    expect(
      needsReview({
        teamCreatedAt: old,
        paymentBlocked: true,
        senderName: 'Bank',
        subject: 'Password reset',
        now: Date.now(),
      }),
    ).toBe(false);
  });
});
