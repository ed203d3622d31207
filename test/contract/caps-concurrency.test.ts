import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { call, newTeam, testDeps } from '../support/local.ts';
import { createUser } from '@mailstack/core/domain/people/create-user';
import { addMember } from '@mailstack/core/domain/people/add-member';
import { createTeamFor } from '@mailstack/core/domain/people/create-team-for';
import { teamsOf } from '@mailstack/core/domain/people/membership';
import { createTeam } from '@mailstack/core/domain/teams/create-team';

/** Fires `n` requests at once; the statuses, sorted. */
const all = async (n: number, send: (i: number) => Promise<{ status: number; json: any }>) => {
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => send(i)));
  return answers;
};

const countList = async (key: string, path: string): Promise<number> => {
  let total = 0;
  let after: string | undefined;
  for (;;) {
    const page = await call('GET', `${path}?limit=100${after ? `&after=${after}` : ''}`, { key });
    total += page.json.data.length;
    if (!page.json.has_more) return total;
    after = page.json.data.at(-1).id;
  }
};

describe('plan caps hold under concurrency (conditional writes, not read-then-write)', () => {
  it('20 concurrent POST /domains on a Free team (cap 1): exactly one domain exists', async () => {
    const t = await newTeam({ plan: 'free' });
    const answers = await all(20, (i) =>
      call('POST', '/domains', { key: t.secret, body: { name: `race${i}-${t.team.id.slice(-8)}.example.com` } }),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 201))
      expect(['plan_limit_reached', 'rate_limit_exceeded']).toContain(a.json.name);
    expect(await countList(t.secret, '/domains')).toBe(1);
  });

  it('a deleted domain frees its slot, once', async () => {
    const t = await newTeam({ plan: 'free' });
    const first = await call('POST', '/domains', {
      key: t.secret,
      body: { name: `one-${t.team.id.slice(-8)}.example.com` },
    });
    const deletes = await all(5, () => call('DELETE', `/domains/${first.json.id}`, { key: t.secret }));
    expect(deletes.filter((d) => d.status === 200)).toHaveLength(1);
    const answers = await all(5, (i) =>
      call('POST', '/domains', { key: t.secret, body: { name: `two${i}-${t.team.id.slice(-8)}.example.com` } }),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(await countList(t.secret, '/domains')).toBe(1);
  });

  it('20 concurrent POST /domains on a Scale team (no domain cap): exactly the 10 an hour allows exist', async () => {
    const t = await newTeam({ plan: 'scale' });
    const answers = await all(20, (i) =>
      call('POST', '/domains', { key: t.secret, body: { name: `hour${i}-${t.team.id.slice(-8)}.example.com` } }),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
    for (const a of answers.filter((x) => x.status !== 201)) expect(a.json.name).toBe('rate_limit_exceeded');
    expect(await countList(t.secret, '/domains')).toBe(10);
  });

  it('20 concurrent POST /contacts on a Free team at 990 contacts (cap 1,000): exactly 1,000 exist', async () => {
    const t = await newTeam({ plan: 'free' });
    // Seeded in batches of 99, each well inside a request's time on a busy machine.
    for (let b = 0; b < 10; b++) {
      const seed = await call('POST', '/contacts/batch', {
        key: t.secret,
        body: Array.from({ length: 99 }, (_, i) => ({ email: `seed${b * 99 + i}@example.com` })),
      });
      expect(seed.status).toBe(200);
    }
    const answers = await all(20, (i) =>
      call('POST', '/contacts', { key: t.secret, body: { email: `race${i}@example.com` } }),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
    for (const a of answers.filter((x) => x.status !== 201)) expect(a.json.name).toBe('plan_limit_reached');
    expect(await countList(t.secret, '/contacts')).toBe(1000);
  }, 240_000);

  it('20 concurrent team creations by one person on the Free plan (cap 1 team): exactly one team is theirs', async () => {
    const d = testDeps();
    const user = await createUser(d, { email: `teams-${randomUUID().slice(0, 8)}@example.com` });
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => createTeamFor(d, user, `Team ${i}`)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected'))
      expect((r as PromiseRejectedResult).reason).toMatchObject({ name: 'plan_limit_reached', statusCode: 403 });
    expect(await teamsOf(d, user.id)).toHaveLength(1);
  }, 120_000);

  it('20 concurrent joins of Pro teams by one person (cap 5 teams): exactly five memberships', async () => {
    const d = testDeps();
    const user = await createUser(d, { email: `joins-${randomUUID().slice(0, 8)}@example.com` });
    const teams = await Promise.all(
      Array.from({ length: 20 }, (_, i) => createTeam(d, { name: `Pro ${i}`, plan: 'pro' })),
    );
    const results = await Promise.allSettled(teams.map((t) => addMember(d, t, user, 'member')));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    for (const r of results.filter((r) => r.status === 'rejected'))
      expect((r as PromiseRejectedResult).reason).toMatchObject({ name: 'plan_limit_reached', statusCode: 403 });
    expect(await teamsOf(d, user.id)).toHaveLength(5);
  }, 120_000);
});
