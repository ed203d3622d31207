import { afterEach, describe, expect, it } from 'vitest';
import { checkTarget, TargetRefused } from '@mailstack/core/domain/webhooks/targets';
import { createWebhook } from '@mailstack/core/domain/webhooks/endpoints';
import { deliverWebhook } from '@mailstack/core/domain/webhooks/deliver';
import { deliveryStore, webhookStore } from '@mailstack/core/table/webhooks';
import type { HostResolver } from '@mailstack/core/ports/dns';
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

const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
afterEach(async () => { for (const r of receivers.splice(0)) await r.close(); });

describe('webhook targets on the cloud host (WEBHOOK_TARGETS=public)', () => {
  it.each(REFUSED)('refuses %s (%s)', async (endpoint, reason) => {
    const refusal = await checkTarget(endpoint, 'public', dns).then(() => undefined, (e: unknown) => e);
    expect(refusal).toBeInstanceOf(TargetRefused);
    expect((refusal as Error).message).toContain(reason);
  });

  it('allows public https targets, by name and by address, and connects to the address it checked', async () => {
    for (const endpoint of ['https://public.test/hook', 'https://93.184.216.34/hook', 'https://[2606:4700:4700::1111]/hook']) {
      await expect(checkTarget(endpoint, 'public', dns)).resolves.toMatchObject({ url: expect.any(URL) });
    }
    expect((await checkTarget('https://public.test/hook', 'public', dns)).address).toEqual({ address: '93.184.216.34', family: 4 });
  });

  it('answers 422 validation_error at create and at update for every refused target', async () => {
    const { team } = await newTeam();
    const engine = engineUnderTest({ WEBHOOK_TARGETS: 'public' });
    const deps = { ...engine.deps, dns };
    for (const [endpoint] of REFUSED) {
      const error = await createWebhook(deps, team.id, { endpoint, events: ['email.sent'] }).then(() => undefined, (e: unknown) => e);
      expect(isApiError(error) && error.statusCode === 422 && error.name === 'validation_error', endpoint).toBe(true);
    }
    const ok = await createWebhook(deps, team.id, { endpoint: 'https://public.test/hook', events: ['email.sent'] });
    const { updateWebhook } = await import('@mailstack/core/domain/webhooks/endpoints');
    await expect(updateWebhook(deps, team.id, ok.id, { endpoint: 'https://internal.rebind.test/x' })).rejects.toMatchObject({ statusCode: 422, name: 'validation_error' });
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
    const local = await createWebhook(engineUnderTest().deps, team.id, { endpoint: rx.url, events: ['contact.created'] });
    rebinding.table['rebind.test'] = ['127.0.0.1'];
    const { jobs } = await engine.emit(team.id);
    engine.queued.splice(0);
    expect(jobs).toHaveLength(2);
    for (const job of jobs) await deliverWebhook(deps, job);
    for (const [webhookId, reason] of [[w.id, /^target refused: .*127\.0\.0\.1 is a loopback address/], [local.id, /^target refused: .*must use https/]] as const) {
      const job = jobs.find((j) => j.webhookId === webhookId)!;
      const { attempts } = await deliveryStore.attempts(deps, team.id, webhookId, job.eventId, { limit: 10 });
      expect(attempts).toEqual([expect.objectContaining({ httpStatusCode: 0, response: expect.stringMatching(reason) })]);
      expect(await deliveryStore.get(deps, team.id, webhookId, job.eventId)).toMatchObject({ status: 'pending', failures: 1 });
    }
    expect(rx.received).toHaveLength(0);
    expect((await webhookStore.get(deps, team.id, w.id))!.status).toBe('enabled');
  });
});

describe('webhook targets on the local host (WEBHOOK_TARGETS=any)', () => {
  it('allows http and loopback so a developer can receive events on this machine', async () => {
    for (const endpoint of ['http://127.0.0.1:4000/hook', 'http://localhost:4000/hook', 'http://[::1]:4000/hook']) {
      await expect(checkTarget(endpoint, 'any', fakeDns({ localhost: ['127.0.0.1'] }))).resolves.toMatchObject({ url: expect.any(URL) });
    }
    await expect(checkTarget('ftp://127.0.0.1/x', 'any', dns)).rejects.toBeInstanceOf(TargetRefused);
  });
});
