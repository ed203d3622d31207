import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { readConfig } from '@mailstack/core/runtime/config';
import { createDeps, setDeps, type Deps } from '@mailstack/core/runtime/deps';
import { createTeam } from '@mailstack/core/domain/teams/create-team';
import { createUser } from '@mailstack/core/domain/people/create-user';
import { addMember } from '@mailstack/core/domain/people/add-member';
import { actorIn, switcherTeams, teamsOf } from '@mailstack/core/domain/people/membership';
import { prepareEmail } from '@mailstack/core/domain/emails/prepare-email';
import { acceptEmails } from '@mailstack/core/domain/emails/accept-emails';
import { deliverEmail } from '@mailstack/core/domain/emails/pipeline/deliver-email';
import { getEmail } from '@mailstack/core/domain/emails/get-email';
import { callerOfKey } from '@mailstack/core/domain/caller';
import { receiveInbound } from '@mailstack/core/domain/mailboxes/receive-message';
import { removeInboxThread } from '@mailstack/core/domain/mailboxes/remove-inbox-thread';
import { updateInboxThread } from '@mailstack/core/domain/mailboxes/update-inbox-thread';
import { getItem } from '@mailstack/core/table/ops';
import { keys } from '@mailstack/core/table/keys';
import { local, testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { mailboxTeam } from '../support/mailboxes.ts';

afterEach(() => setDeps(undefined));

/**
 * The service's flows over a table whose index reads lag (INDEX_LAG_MS, as eventually consistent
 * GSIs on AWS): a minute here, so every index read of this process misses what it wrote itself.
 */
const lagging = (overrides: Partial<Deps> = {}): Deps =>
  createDeps(readConfig({ ...local().env, INDEX_LAG_MS: '60000' }), overrides);

describe('flows that read their own writes, over indexes that lag as on AWS', () => {
  it("lists the team a person just joined in the dashboard's team switcher, though the index of their teams does not show it yet", async () => {
    // Prepare
    const deps = lagging();
    const team = await createTeam(deps, { name: `Joined ${randomUUID().slice(0, 8)}` });
    const user = await createUser(deps, { email: `joiner-${randomUUID()}@example.com`, name: 'Joiner' });
    await addMember(deps, team, user, 'member');

    // Act
    const actor = await actorIn(deps, user, team.id);
    const teams = await switcherTeams(deps, actor);

    // Assess: the switch is on (the index misses the membership), the switcher does not.
    expect(await teamsOf(deps, user.id)).toEqual([]);
    expect(teams).toEqual([{ id: team.id, name: team.name }]);
  });

  it('accepts, sends and reads back an email without reading its own writes through an index', async () => {
    // Prepare
    const t = await sendingTeam();
    const deps = lagging({ mail: { send: async () => ({ providerMessageId: `lag-${randomUUID()}` }) } as never });
    setDeps(deps);
    const caller = callerOfKey(t.key, t.team);
    const prepared = await prepareEmail(deps, caller, {
      from: t.from,
      to: 'delivered@resend.dev',
      subject: 'Lag',
      text: 'x',
    });

    // Act
    const [accepted] = await acceptEmails(deps, caller, [prepared]);
    const outcome = await deliverEmail(deps, { teamId: t.team.id, emailId: accepted!.id });

    // Assess
    expect(outcome).toEqual({ kind: 'done' });
    expect(await getEmail(deps, t.team.id, accepted!.id)).toMatchObject({ id: accepted!.id, status: 'sent' });
  });

  /** A mailbox with a thread of two messages, the second arrived a moment ago (over lagging indexes). */
  const threadJustAnswered = async (deps: Deps) => {
    const t = await mailboxTeam();
    const m = await t.mailbox(`lag-${randomUUID().slice(0, 8)}`);
    const first = `<${randomUUID()}@customer.example.org>`;
    const mail = (headers: string, text: string) =>
      receiveInbound(
        deps,
        Buffer.from(`${headers}From: ada@customer.example.org\r\nTo: ${m.address}\r\n\r\n${text}\r\n`),
        { recipients: [m.address], mailFrom: 'ada@customer.example.org' },
      );
    const a = await mail(`Message-ID: ${first}\r\nSubject: Quote\r\n`, 'A quote, please.');
    const b = await mail(
      `Message-ID: <${randomUUID()}@customer.example.org>\r\nIn-Reply-To: ${first}\r\nSubject: Re: Quote\r\n`,
      'Still waiting.',
    );
    const [one, two] = [a.stored[0]!, b.stored[0]!];
    expect(two.threadId).toBe(one.threadId);
    return { t, m, threadId: one.threadId, messageIds: [one.messageId, two.messageId] };
  };

  it('removes a thread with every message in it, the one that arrived a moment ago included', async () => {
    // Prepare
    const deps = lagging();
    setDeps(deps);
    const { t, m, threadId, messageIds } = await threadJustAnswered(deps);

    // Act
    await removeInboxThread(deps, m, threadId);

    // Assess: no message row is left behind (read from the base table, consistently).
    for (const id of messageIds) expect(await getItem(testDeps(), keys.message.item(t.team.id, id))).toBeUndefined();
  });

  it('moves a thread with every message in it, the one that arrived a moment ago included', async () => {
    // Prepare
    const deps = lagging();
    setDeps(deps);
    const { t, m, threadId, messageIds } = await threadJustAnswered(deps);

    // Act
    await updateInboxThread(deps, m, threadId, { folder: 'archive' });

    // Assess
    for (const id of messageIds)
      expect(await getItem(testDeps(), keys.message.item(t.team.id, id))).toMatchObject({ folder: 'archive' });
  });
});
