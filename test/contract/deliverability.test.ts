import { describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '@mailstack/core/table/keys';
import { testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { eventsOf } from '../support/events.ts';

const today = () => new Date().toISOString().slice(0, 10);
const seed = async (teamId: string, counts: { sent: number; bounced: number; complained?: number }) => {
  const d = testDeps();
  await d.db.send(
    new PutCommand({
      TableName: d.table,
      Item: { ...keys.deliverability.day(teamId, today()), complained: 0, ...counts },
    }),
  );
};

const waitForEvent = async (teamId: string, type: string) => {
  for (let i = 0; i < 100; i++) {
    const found = (await eventsOf(teamId)).find((e) => e.type === type);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`no ${type} event`);
};

describe('the deliverability guardrail', () => {
  it('pauses a team whose hard-bounce rate crosses the line, refusing sends with sending_paused until it recovers', async () => {
    const t = await sendingTeam();
    await seed(t.team.id, { sent: 100, bounced: 10 });
    const bounce = await t.resend.emails.send({ from: t.from, to: 'bounced@resend.dev', subject: 'x', text: 'x' });
    expect(bounce.error).toBeNull();
    const paused = await waitForEvent(t.team.id, 'deliverability.paused');
    expect(paused.data).toMatchObject({
      metric: 'bounce_rate',
      limit: 0.1,
      window_days: 7,
      dashboard_url: expect.any(String),
    });
    const refused = await t.resend.emails.send({ from: t.from, to: 'someone@example.com', subject: 'x', text: 'x' });
    expect(refused.error).toMatchObject({ statusCode: 403, name: 'sending_paused' });
    expect(refused.error!.message).toMatch(/bounce rate.*7 days.*10\.00%/);
    await seed(t.team.id, { sent: 1000, bounced: 11 });
    expect(
      (await t.resend.emails.send({ from: t.from, to: 'someone@example.com', subject: 'x', text: 'x' })).error,
    ).toBeNull();
  }, 30_000);

  it('warns once when the complaint rate crosses the risk line', async () => {
    const t = await sendingTeam();
    await seed(t.team.id, { sent: 1000, bounced: 0, complained: 1 });
    await t.resend.emails.send({ from: t.from, to: 'complained@resend.dev', subject: 'x', text: 'x' });
    const warning = await waitForEvent(t.team.id, 'deliverability.warning');
    expect(warning.data).toMatchObject({ metric: 'complaint_rate', limit: 0.001, window_days: 7 });
    expect(
      (await t.resend.emails.send({ from: t.from, to: 'someone@example.com', subject: 'x', text: 'x' })).error,
    ).toBeNull();
  }, 30_000);
});
