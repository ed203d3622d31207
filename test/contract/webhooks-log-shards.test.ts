import { describe, expect, it } from 'vitest';
import { createWebhook } from '@mailstack/core/domain/webhooks/create-webhook';
import { keys, shardOf } from '@mailstack/core/table/keys';
import { call, newTeam } from '../support/local.ts';
import { useReceivers } from '../support/receiver.ts';
import { engineUnderTest } from '../support/webhook-engine.ts';

const receiver = useReceivers();

describe('the delivery log spread over shards', () => {
  it('lists every delivery once, newest first, page by page with after and back with before', async () => {
    const { team, resend, secret } = await newTeam();
    const rx = await receiver();
    const engine = engineUnderTest();
    const w = await createWebhook(engine.deps, team.id, { endpoint: rx.url, events: ['contact.created'] });
    const eventIds: string[] = [];
    for (let i = 0; i < 9; i++) {
      engine.clock.t += 1_000;
      eventIds.push((await engine.emit(team.id)).jobs[0]!.eventId);
    }
    // The deliveries sit in several partition keys: a list that read one shard would miss some.
    expect(new Set(eventIds.map((id) => shardOf(id, keys.webhook.logShards))).size).toBeGreaterThan(1);
    const newestFirst = [...eventIds].sort().reverse();

    const pages: string[][] = [];
    let after: string | undefined;
    for (;;) {
      const { data, error } = await resend.webhooks.events.list({
        webhookId: w.id,
        limit: 4,
        ...(after ? { after } : {}),
      });
      expect(error).toBeNull();
      pages.push(data!.data.map((d) => d.id));
      if (!data!.has_more) break;
      after = data!.data.at(-1)!.id;
    }
    expect(pages.map((p) => p.length)).toEqual([4, 4, 1]);
    expect(pages.flat()).toEqual(newestFirst);

    // Back from the last page: the four just newer than its item, still newest first, more beyond.
    // (The SDK's list options have no `before`: the API's own query parameter.)
    const back = await call('GET', `/webhooks/${w.id}/events?limit=4&before=${pages[2]![0]!}`, { key: secret });
    expect(back.status).toBe(200);
    expect(back.json).toMatchObject({ has_more: true });
    expect(back.json.data.map((d: { id: string }) => d.id)).toEqual(newestFirst.slice(4, 8));
  });
});
