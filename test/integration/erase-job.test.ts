import { describe, expect, it } from 'vitest';
import { keys } from '@mailstack/core/table/keys';
import { getItem, putItem } from '@mailstack/core/table/ops';
import { runEraseJob, startErase } from '@mailstack/core/domain/contacts/erase-history';
import { createContact } from '@mailstack/core/domain/contacts/create-contact';
import { testDeps, newTeam } from '../support/local.ts';

describe('erase as a resumable job', () => {
  it('rewrites history a page at a time, keeps its place between runs, and records when it finished', async () => {
    // Prepare: a contact with 250 stored emails to it, and a worker whose queue messages go nowhere.
    const { team } = await newTeam();
    const d = { ...testDeps(), queue: { send: async () => undefined } };
    const contact = await createContact(d, team, { email: 'gone@example.com' });
    const ids = Array.from({ length: 250 }, () => crypto.randomUUID());
    for (const id of ids)
      await putItem(d, {
        ...keys.email.item(team.id, id),
        ...keys.email.listing(team.id, id),
        type: 'email',
        id,
        team_id: team.id,
        to: ['Gone <gone@example.com>'],
        cc: [],
        bcc: [],
        reply_to: ['keep@example.com'],
      });

    // Act: start the job (it answers at once), then run it one page per run, as a crash-interrupted worker would.
    const jobId = (await startErase(d, team.id, [contact]))!;
    const job = () => getItem(d, keys.eraseJob.item(team.id, jobId));
    expect((await job())!.status).toBe('running');
    let runs = 0;
    const positions: number[] = [];
    while ((await runEraseJob(d, { teamId: team.id, jobId }, 1)) === 'more') {
      positions.push((await job())!.version);
      runs++;
    }

    // Assess: every run moved the saved position on; the history is rewritten; the job says when it finished.
    expect(runs).toBeGreaterThan(3);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(new Set(positions).size).toBe(positions.length);
    for (const id of ids.slice(0, 5))
      expect((await getItem(d, keys.email.item(team.id, id)))!).toMatchObject({
        to: ['[erased]'],
        reply_to: ['keep@example.com'],
      });
    const finished = await job();
    // 250 emails and the contact.created event that named the address.
    expect(finished).toMatchObject({ status: 'finished', finished_at: expect.any(String), rewritten: 251 });
    expect(await getItem(d, keys.eraseJob.running(team.id, jobId))).toBeUndefined();
    expect(await runEraseJob(d, { teamId: team.id, jobId })).toBe('done');
  }, 60_000);
});
