import { describe, expect, it } from 'vitest';
import { emailExpiry } from '@mailstack/core/domain/emails/retention';
import { eventItem } from '@mailstack/core/domain/events/record-event';
import { getEmail } from '@mailstack/core/domain/emails/get-email';
import { TABLE } from '@mailstack/core/table/definition';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');

/** Just what these use cases read: the retention setting, the clock, ids, and one stored row. */
const depsWith = (days: number, stored?: Record<string, unknown>) =>
  ({
    config: { EMAIL_RETENTION_DAYS: days },
    clock: { now: () => NOW },
    ids: { next: () => '0190a3b2-0000-7000-8000-000000000001' },
    table: 'table',
    tableStore: { get: async () => ({ Item: stored }) },
  }) as any;

describe('the email retention (mailstack:emailRetentionDays)', () => {
  it('sets no expiry while off, and the TTL attribute that many days on when set', () => {
    expect(emailExpiry(depsWith(0), NOW)).toEqual({});
    expect(emailExpiry(depsWith(30), NOW)).toEqual({ [TABLE.ttlAttribute]: NOW / 1000 + 30 * 86_400 });
  });

  it("expires an email's events with it, and no other event", () => {
    const deps = depsWith(7);
    const sent = eventItem(deps, 'team', 'email.sent', { email_id: 'e' });
    expect(sent.item[TABLE.ttlAttribute as keyof typeof sent.item]).toBe(NOW / 1000 + 7 * 86_400);
    expect(sent.handedOver[TABLE.ttlAttribute as keyof typeof sent.handedOver]).toBe(NOW / 1000 + 7 * 86_400);
    const created = eventItem(deps, 'team', 'contact.created', { id: 'c' });
    expect(TABLE.ttlAttribute in created.item).toBe(false);
    expect(TABLE.ttlAttribute in eventItem(depsWith(0), 'team', 'email.sent', {}).item).toBe(false);
  });

  it('answers 404 for an email past its expiry that DynamoDB has not removed yet', async () => {
    const row = { type: 'email', id: 'e', team_id: 'team', status: 'delivered' };
    await expect(
      getEmail(depsWith(30, { ...row, [TABLE.ttlAttribute]: NOW / 1000 - 1 }), 'team', 'e'),
    ).rejects.toMatchObject({
      name: 'not_found',
    });
    await expect(
      getEmail(depsWith(30, { ...row, [TABLE.ttlAttribute]: NOW / 1000 + 60 }), 'team', 'e'),
    ).resolves.toMatchObject({
      id: 'e',
    });
  });
});
