import { afterEach, describe, expect, it } from 'vitest';
import { checkTarget, TargetRefused } from '@mailstack/core/domain/webhooks/targets';
import { createWebhook } from '@mailstack/core/domain/webhooks/create-webhook';
import { deliverWebhook } from '@mailstack/core/domain/webhooks/deliver';
import { deliveryStore, webhookStore } from '@mailstack/core/table/webhooks';
import type { HostResolver } from '@mailstack/core/ports/dns';
import type { WebhookPoster, CheckedTarget } from '@mailstack/core/ports/webhook-poster';
import { nodeWebhookPoster } from '@mailstack/core/adapters/node/webhook-poster';
import { isApiError } from '@mailstack/core/errors/api-error';
import { newTeam } from '../support/local.ts';
import { startReceiver } from '../support/receiver.ts';
import { engineUnderTest } from '../support/webhook-engine.ts';

/** A DNS the test plays: names map to address lists; unknown names do not resolve. */
const fakeDns = (table: Record<string, string[]>): HostResolver & { table: Record<string, string[]> } => ({
  table,
  async resolve(host) {
    const found = table[host];
    if (!found) throw new Error(`ENOTFOUND ${host}`);
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  },
});

const dns = fakeDns({
  'public.test': ['93.184.216.34'],
  'internal.rebind.test': ['10.1.2.3'],
  'mixed.test': ['93.184.216.34', '127.0.0.1'],
  'v6private.test': ['fd12:3456::1'],
  'metadata.test': ['169.254.169.254'],
  'mapped.test': ['::ffff:192.168.0.10'],
});

/** Hostile targets for the cloud host, each with a word its refusal must carry. */
const REFUSED: [string, string][] = [
  ['http://public.test/hook', 'https'],
  ['https://127.0.0.1/hook', 'loopback'],
  ['https://localhost/hook', 'local'],
  ['https://10.0.0.5/hook', 'private'],
  ['https://172.16.3.4/hook', 'private'],
  ['https://192.168.1.1/hook', 'private'],
  ['https://169.254.169.254/latest/meta-data/', 'metadata'],
  ['https://[::1]/hook', 'loopback'],
  ['https://[fe80::1]/hook', 'link-local'],
  ['https://[fd00:ec2::254]/hook', 'unique-local'],
  ['https://100.64.0.1/hook', 'carrier-grade'],
  ['https://100.100.100.200/hook', 'carrier-grade'],
  ['https://[::ffff:127.0.0.1]/hook', 'loopback'],
  ['https://[::ffff:169.254.169.254]/hook', 'link-local'],
  ['https://2130706433/hook', 'loopback'],
  ['https://0177.0.0.1/hook', 'loopback'],
  ['https://0x7f.0.0.1/hook', 'loopback'],
  ['https://0.0.0.0/hook', 'unspecified'],
  ['https://[::]/hook', 'unspecified'],
  ['https://224.0.0.1/hook', 'multicast'],
  ['https://metadata.google.internal/computeMetadata/v1/', 'private network'],
  ['https://internal.rebind.test/hook', 'private'],
  ['https://mixed.test/hook', 'loopback'],
  ['https://v6private.test/hook', 'unique-local'],
  ['https://metadata.test/hook', 'link-local'],
  ['https://mapped.test/hook', 'private'],
  ['https://nxdomain.test/hook', 'does not resolve'],
  ['https://user:pass@public.test/hook', 'credentials'],
  ['ftp://public.test/hook', 'http(s)'],
];

/** The real poster, recording the target of every request the engine makes. */
const recordingPoster = (): WebhookPoster & { targets: CheckedTarget[] } => {
  const targets: CheckedTarget[] = [];
  return {
    targets,
    post: async (target, ...rest) => {
      targets.push(target);
      return nodeWebhookPoster.post(target, ...rest);
    },
  };
};

const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});

describe('webhook targets on the cloud host (WEBHOOK_TARGETS=public)', () => {
  it.each(REFUSED)('refuses %s (%s)', async (endpoint, reason) => {
    const refusal = await checkTarget(endpoint, 'public', dns).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refusal).toBeInstanceOf(TargetRefused);
    expect((refusal as Error).message).toContain(reason);
  });

  it('allows public https targets, by name and by address, and connects to the address it checked', async () => {
    for (const endpoint of [
      'https://public.test/hook',
      'https://93.184.216.34/hook',
      'https://[2606:4700:4700::1111]/hook',
    ]) {
      await expect(checkTarget(endpoint, 'public', dns)).resolves.toMatchObject({ url: expect.any(URL) });
    }
    expect((await checkTarget('https://public.test/hook', 'public', dns)).address).toEqual({
      address: '93.184.216.34',
      family: 4,
    });
  });

  it('answers 422 validation_error at create and at update for every refused target', async () => {
    const { team } = await newTeam();
    const engine = engineUnderTest({ WEBHOOK_TARGETS: 'public' });
    const deps = { ...engine.deps, dns };
    for (const [endpoint] of REFUSED) {
      const error = await createWebhook(deps, team.id, { endpoint, events: ['email.sent'] }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isApiError(error) && error.statusCode === 422 && error.name === 'validation_error', endpoint).toBe(true);
    }
    const ok = await createWebhook(deps, team.id, { endpoint: 'https://public.test/hook', events: ['email.sent'] });
    const { updateWebhook } = await import('@mailstack/core/domain/webhooks/update-webhook');
    await expect(
      updateWebhook(deps, team.id, ok.id, { endpoint: 'https://internal.rebind.test/x' }),
    ).rejects.toMatchObject({ statusCode: 422, name: 'validation_error' });
  });

  it('at delivery, a target that now resolves to a private address (DNS rebinding) or is loopback gets a failed attempt and never a request', async () => {
    const { team } = await newTeam();
    const rx = await startReceiver();
    receivers.push(rx);
    const rebinding = fakeDns({ 'rebind.test': ['93.184.216.34'] });
    const engine = engineUnderTest({ WEBHOOK_TARGETS: 'public' });
    const deps = { ...engine.deps, dns: rebinding };
    // Created while the name pointed at a public address.
    const w = await createWebhook(deps, team.id, { endpoint: 'https://rebind.test/hook', events: ['contact.created'] });
    // A loopback endpoint written by a host that allowed it (the local host), delivered by the cloud policy.
    const local = await createWebhook(engineUnderTest().deps, team.id, {
      endpoint: rx.url,
      events: ['contact.created'],
    });
    rebinding.table['rebind.test'] = ['127.0.0.1'];
    const { jobs } = await engine.emit(team.id);
    engine.queued.splice(0);
    expect(jobs).toHaveLength(2);
    for (const job of jobs) await deliverWebhook(deps, job);
    for (const [webhookId, reason] of [
      [w.id, /^target refused: .*127\.0\.0\.1 is a loopback address/],
      [local.id, /^target refused: .*must use https/],
    ] as const) {
      const job = jobs.find((j) => j.webhookId === webhookId)!;
      const { items: attempts } = await deliveryStore.attempts(deps, team.id, webhookId, job.eventId, { limit: 10 });
      expect(attempts).toEqual([
        expect.objectContaining({ httpStatusCode: 0, response: expect.stringMatching(reason) }),
      ]);
      expect(await deliveryStore.get(deps, team.id, webhookId, job.eventId)).toMatchObject({
        status: 'pending',
        failures: 1,
      });
    }
    expect(rx.received).toHaveLength(0);
    expect((await webhookStore.get(deps, team.id, w.id))!.status).toBe('enabled');
  });
});

describe('the refusal table at delivery (WEBHOOK_TARGETS=public)', () => {
  it('every hostile target gets a failed attempt naming the refusal, and no request is made', async () => {
    const { team } = await newTeam();
    const engine = engineUnderTest({ WEBHOOK_TARGETS: 'public' });
    // While the endpoints were created, every name of the table resolved to a public address.
    const benign: HostResolver = {
      resolve: async (host) =>
        host === 'nxdomain.test' || dns.table[host] ? [{ address: '93.184.216.34', family: 4 }] : dns.resolve(host),
    };
    const created = { ...engine.deps, dns: benign };
    const ids = new Map<string, string>();
    const createdByName: string[] = [];
    for (const [endpoint] of REFUSED) {
      const w = await createWebhook(created, team.id, { endpoint, events: ['contact.created'] }).catch(() => undefined);
      if (w) {
        createdByName.push(endpoint);
        ids.set(w.id, endpoint);
        continue;
      }
      // A literal address, a scheme or credentials no check lets in: a row written before this
      // policy applied (by a host that allowed it), changed in the table to the hostile target.
      const row = await createWebhook(created, team.id, {
        endpoint: 'https://public.test/hook',
        events: ['contact.created'],
      });
      expect(await webhookStore.update(created, team.id, row.id, { endpoint })).toBeTruthy();
      ids.set(row.id, endpoint);
    }
    // The names turned hostile after creation (DNS now answers with the table's addresses).
    expect(createdByName.sort()).toEqual([
      'https://internal.rebind.test/hook',
      'https://mapped.test/hook',
      'https://metadata.test/hook',
      'https://mixed.test/hook',
      'https://nxdomain.test/hook',
      'https://v6private.test/hook',
    ]);

    const poster = recordingPoster();
    const deps = { ...engine.deps, dns, webhookPoster: poster };
    const { jobs } = await engine.emit(team.id);
    engine.queued.splice(0);
    expect(jobs).toHaveLength(REFUSED.length);
    for (const job of jobs) expect(await deliverWebhook(deps, job)).toEqual({ kind: 'done' });

    expect(poster.targets).toEqual([]);
    for (const job of jobs) {
      const endpoint = ids.get(job.webhookId)!;
      const reason = REFUSED.find(([e]) => e === endpoint)![1];
      const { items: attempts } = await deliveryStore.attempts(deps, team.id, job.webhookId, job.eventId, {
        limit: 10,
      });
      expect(attempts, endpoint).toEqual([
        expect.objectContaining({ httpStatusCode: 0, response: expect.stringMatching(/^target refused: /) }),
      ]);
      expect(attempts[0]!.response, endpoint).toContain(reason);
      // A failed attempt like any other: retried on the schedule, the endpoint stays enabled.
      expect(await deliveryStore.get(deps, team.id, job.webhookId, job.eventId), endpoint).toMatchObject({
        status: 'pending',
        failures: 1,
      });
    }
  }, 60_000);

  it('connects to the address it checked: the request goes to the checked address, with no second DNS query', async () => {
    const { team } = await newTeam();
    const checked = recordingPoster();
    // Public policy: the engine hands the poster the address the check approved.
    const publicEngine = engineUnderTest({ WEBHOOK_TARGETS: 'public' });
    const w = await createWebhook({ ...publicEngine.deps, dns }, team.id, {
      endpoint: 'https://public.test/hook',
      events: ['contact.created'],
    });
    const stub: WebhookPoster & { targets: CheckedTarget[] } = {
      targets: [],
      post: async (target) => {
        stub.targets.push(target);
        return { status: 200, excerpt: '', retryAfter: undefined };
      },
    };
    const {
      jobs: [job],
    } = await publicEngine.emit(team.id);
    await deliverWebhook({ ...publicEngine.deps, dns, webhookPoster: stub }, job!);
    expect(stub.targets.map((t) => [t.url.hostname, t.address])).toEqual([
      ['public.test', { address: '93.184.216.34', family: 4 }],
    ]);
    await webhookStore.remove(publicEngine.deps, team.id, w.id);

    // Through the real poster: a name only the injected resolver knows, answering the receiver's
    // address once and an unroutable one after. The request arrives, for that name, at the receiver.
    const rx = await startReceiver();
    receivers.push(rx);
    const port = new URL(rx.url).port;
    const answers: string[] = [];
    const flipping: HostResolver = {
      resolve: async (host) => {
        if (host !== 'pinned.test') throw new Error(`ENOTFOUND ${host}`);
        const address = answers.length === 0 ? '127.0.0.1' : '192.0.2.1';
        answers.push(address);
        return [{ address, family: 4 }];
      },
    };
    const localEngine = engineUnderTest({ WEBHOOK_TARGETS: 'any' });
    await createWebhook({ ...localEngine.deps, dns: flipping }, team.id, {
      endpoint: `http://pinned.test:${port}/hook`,
      events: ['contact.created'],
    });
    answers.splice(0);
    const {
      jobs: [pinned],
    } = await localEngine.emit(team.id);
    await deliverWebhook({ ...localEngine.deps, dns: flipping, webhookPoster: checked }, pinned!);
    expect(answers).toEqual(['127.0.0.1']);
    expect(checked.targets.map((t) => t.address.address)).toEqual(['127.0.0.1']);
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0]!.headers.host).toBe(`pinned.test:${port}`);
    expect(await deliveryStore.get(localEngine.deps, team.id, pinned!.webhookId, pinned!.eventId)).toMatchObject({
      status: 'success',
    });
  });
});

describe('webhook targets on the local host (WEBHOOK_TARGETS=any)', () => {
  it('allows http and loopback so a developer can receive events on this machine', async () => {
    for (const endpoint of ['http://127.0.0.1:4000/hook', 'http://localhost:4000/hook', 'http://[::1]:4000/hook']) {
      await expect(checkTarget(endpoint, 'any', fakeDns({ localhost: ['127.0.0.1'] }))).resolves.toMatchObject({
        url: expect.any(URL),
      });
    }
    await expect(checkTarget('ftp://127.0.0.1/x', 'any', dns)).rejects.toBeInstanceOf(TargetRefused);
  });
});
