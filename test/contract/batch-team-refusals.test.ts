import { describe, expect, it } from 'vitest';
import { keys } from '@mailstack/core/table/keys';
import { putItem, updateItem } from '@mailstack/core/table/ops';
import { updateTeam } from '@mailstack/core/domain/teams/update-team';
import { call, testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';

const today = () => new Date().toISOString().slice(0, 10);
const mail = (from: string, n: number) => ({ from, to: `reader${n}@example.com`, subject: `Item ${n}`, text: 'x' });
const permissiveBatch = (secret: string, from: string, body?: unknown[]) =>
  call('POST', '/emails/batch', {
    key: secret,
    headers: { 'x-batch-validation': 'permissive' },
    body: body ?? [mail(from, 1), mail(from, 2), { from, to: 'not an address', subject: 'bad', text: 'x' }],
  });

describe('team-level refusals answer once for a whole batch', () => {
  it('refuses a permissive batch from a paused team with one 403 sending_paused, storing nothing', async () => {
    const t = await sendingTeam();
    const d = testDeps();
    // The host holds a fresh copy of the team; the pause, made in this process, holds at once.
    expect((await t.resend.domains.list()).error).toBeNull();
    await putItem(d, { ...keys.deliverability.day(t.team.id, today(), 0), sent: 200, bounced: 40, complained: 0 });
    await updateItem(d, keys.team.item(t.team.id), {
      set: { sending_paused: { metric: 'bounce_rate', rate: 0.2, limit: 0.1, window_days: 7 } },
    });
    const res = await permissiveBatch(t.secret, t.from);
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ name: 'sending_paused' });
    expect(res.json.errors).toBeUndefined();
    expect((await t.resend.emails.list()).data!.data).toEqual([]);
  });

  it('refuses a permissive batch from a suspended team with one 403 team_suspended', async () => {
    const t = await sendingTeam();
    expect((await t.resend.domains.list()).error).toBeNull();
    await updateTeam(testDeps(), t.team.id, { status: 'suspended' });
    const res = await permissiveBatch(t.secret, t.from);
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ name: 'team_suspended' });
  });

  it('still reports item errors by index in a permissive batch from a team in good standing', async () => {
    const t = await sendingTeam();
    const res = await permissiveBatch(t.secret, t.from);
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(2);
    expect(res.json.errors).toEqual([{ index: 2, message: expect.stringContaining('to') }]);
  });
});
