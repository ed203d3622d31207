import { resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import { readConfig } from '@mailstack/core/runtime/config';
import { createDeps, setDeps } from '@mailstack/core/runtime/deps';
import { loadDomain, trackingOrigin } from '@mailstack/core/domain/domains/domain';
import { trackHtml } from '@mailstack/core/domain/tracking/rewrite';
import { createApiServer } from '../../lib/local/server.ts';
import { local, newTeam, testDeps } from '../support/local.ts';
import { expectReferenceShape } from '../support/openapi.ts';
import { responseProblems } from '../support/own-document.ts';

describe('domains through the official SDK', () => {
  it('creates a domain with its DNS records and lists, gets, verifies, updates and deletes it', async () => {
    // Prepare
    const { resend } = await newTeam({ plan: 'pro' });

    // Act
    const created = await resend.domains.create({ name: 'Mail.Example.com' });

    // Assess
    expect(created.error).toBeNull();
    expectReferenceShape('POST', '/domains', 201, created.data);
    const domain = created.data!;
    expect(domain).toMatchObject({
      name: 'mail.example.com',
      status: 'not_started',
      region: 'us-east-1',
      capabilities: { sending: 'enabled', receiving: 'disabled' },
    });
    expect(domain.records.map((r) => `${r.record}/${r.type}`)).toEqual([
      'SPF/MX',
      'SPF/TXT',
      'DKIM/CNAME',
      'DKIM/CNAME',
      'DKIM/CNAME',
    ]);
    expect(domain.records.every((r) => r.ttl === 'Auto')).toBe(true);
    // `priority` on MX records only, as the reference answers them ("only applicable for MX records").
    expect(domain.records.map((r) => (r as { priority?: number }).priority)).toEqual([
      10,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(domain.records.filter((r) => r.type !== 'MX').every((r) => !('priority' in r))).toBe(true);

    const listed = await resend.domains.list();
    expect(listed.data).toMatchObject({ object: 'list', has_more: false });
    expectReferenceShape('GET', '/domains', 200, listed.data);
    expect(listed.data!.data.map((d) => d.id)).toEqual([domain.id]);
    expect(listed.data!.data[0]).not.toHaveProperty('records');

    expect((await resend.domains.verify(domain.id)).data).toEqual({ object: 'domain', id: domain.id });
    const got = await resend.domains.get(domain.id);
    expect(got.data).toMatchObject({ object: 'domain', id: domain.id, status: 'verified' });
    expectReferenceShape('GET', '/domains/{domain_id}', 200, got.data);
    expect(got.data!.records.every((r) => r.status === 'verified')).toBe(true);

    expect((await resend.domains.update({ id: domain.id, openTracking: true, clickTracking: true })).data).toEqual({
      object: 'domain',
      id: domain.id,
    });
    expect((await resend.domains.get(domain.id)).data).toMatchObject({ open_tracking: true, click_tracking: true });

    const removed = await resend.domains.remove(domain.id);
    expect(removed.data).toEqual({ object: 'domain', id: domain.id, deleted: true });
    expectReferenceShape('DELETE', '/domains/{domain_id}', 200, removed.data);
    expect((await resend.domains.get(domain.id)).error).toMatchObject({ statusCode: 404, name: 'not_found' });
  });

  it('pages the list newest first with after and before cursors', async () => {
    const { resend } = await newTeam({ plan: 'scale' });
    const ids: string[] = [];
    for (const n of [1, 2, 3, 4, 5]) ids.unshift((await resend.domains.create({ name: `d${n}.example.org` })).data!.id);

    const first = await resend.domains.list({ limit: 2 });
    expect(first.data!.data.map((d) => d.id)).toEqual(ids.slice(0, 2));
    expect(first.data!.has_more).toBe(true);
    const second = await resend.domains.list({ limit: 2, after: ids[1]! });
    expect(second.data!.data.map((d) => d.id)).toEqual(ids.slice(2, 4));
    const last = await resend.domains.list({ limit: 2, after: ids[3]! });
    expect(last.data!.data.map((d) => d.id)).toEqual([ids[4]]);
    expect(last.data!.has_more).toBe(false);
    const back = await resend.domains.list({ limit: 2, before: ids[4]! });
    expect(back.data!.data.map((d) => d.id)).toEqual(ids.slice(2, 4));
    expect(back.data!.has_more).toBe(true);
  });

  it('refuses a region the deployment does not serve with validation_error', async () => {
    const { resend } = await newTeam();
    const out = await resend.domains.create({ name: 'example.net', region: 'eu-west-1' });
    expect(out.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(out.error!.message).toContain('us-east-1');
  });

  it('refuses unsupported fields such as tls on update with validation_error', async () => {
    const { resend } = await newTeam();
    const { data } = await resend.domains.create({ name: 'tls.example.com' });
    const out = await resend.domains.update({ id: data!.id, tls: 'enforced' });
    expect(out.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(out.error!.message).toContain('tls');
  });

  it('applies the plan domain cap with plan_limit_reached', async () => {
    const { resend } = await newTeam({ plan: 'free' });
    expect((await resend.domains.create({ name: 'one.example.com' })).error).toBeNull();
    const out = await resend.domains.create({ name: 'two.example.com' });
    expect(out.error).toMatchObject({ statusCode: 403, name: 'plan_limit_reached' });
  });

  it('allows 10 domain creations per hour per team, then rate_limit_exceeded', async () => {
    const { resend } = await newTeam({ plan: 'scale' });
    for (let n = 0; n < 10; n++) {
      const made = await resend.domains.create({ name: `h${n}.example.com` });
      expect(made.error).toBeNull();
      await resend.domains.remove(made.data!.id);
    }
    const out = await resend.domains.create({ name: 'h10.example.com' });
    expect(out.error).toMatchObject({ statusCode: 429, name: 'rate_limit_exceeded' });
    expect(Number(out.headers?.['retry-after'])).toBeGreaterThan(0);
  });

  it('refuses a second domain of the same name with conflict', async () => {
    const { resend } = await newTeam({ plan: 'pro' });
    await resend.domains.create({ name: 'dup.example.com' });
    const out = await resend.domains.create({ name: 'DUP.example.com' });
    expect(out.error).toMatchObject({ statusCode: 409, name: 'conflict' });
  });

  it("answers 404 not_found for every route with another team's domain id", async () => {
    const owner = await newTeam();
    const stranger = await newTeam();
    const { data } = await owner.resend.domains.create({ name: 'mine.example.com' });
    const id = data!.id;
    for (const out of [
      await stranger.resend.domains.get(id),
      await stranger.resend.domains.update({ id, openTracking: true }),
      await stranger.resend.domains.verify(id),
      await stranger.resend.domains.remove(id),
    ]) {
      expect(out.error).toMatchObject({ statusCode: 404, name: 'not_found' });
    }
    expect((await stranger.resend.domains.list()).data!.data).toEqual([]);
    expect((await owner.resend.domains.get(id)).data!.id).toBe(id);
  });
});

describe('a domain across teams', () => {
  it('is held by one team: a second team gets 409 and cannot verify or send from it; after the first lets go, the second starts unverified', async () => {
    const first = await newTeam({ plan: 'pro' });
    const second = await newTeam({ plan: 'pro' });
    const name = `shared-${crypto.randomUUID().slice(0, 8)}.example.com`;
    const { data: held } = await first.resend.domains.create({ name });
    await first.resend.domains.verify(held!.id);
    expect((await first.resend.domains.get(held!.id)).data?.status).toBe('verified');

    // the second team cannot add it, verify it, or send as it
    const taken = await second.resend.domains.create({ name: name.toUpperCase() });
    expect(taken.error).toMatchObject({ statusCode: 409, name: 'conflict' });
    expect(taken.error!.message).toMatch(/another team/);
    expect((await second.resend.domains.verify(held!.id)).error).toMatchObject({ statusCode: 404 });
    const sent = await second.resend.emails.send({
      from: `ceo@${name}`,
      to: 'delivered@resend.dev',
      subject: 'not yours',
      text: 'x',
    });
    expect(sent.error?.statusCode).toBeGreaterThanOrEqual(400);
    expect(sent.error?.statusCode).toBeLessThan(500);
    expect((await second.resend.domains.list()).data!.data).toEqual([]);
    // the first team still sends from it
    expect(
      (
        await first.resend.emails.send({
          from: `hello@${name}`,
          to: 'delivered@resend.dev',
          subject: 'mine',
          text: 'x',
        })
      ).error,
    ).toBeNull();

    // once the first team deletes it, the second may add it, and must verify it itself
    expect((await first.resend.domains.remove(held!.id)).error).toBeNull();
    const mine = await second.resend.domains.create({ name });
    expect(mine.error).toBeNull();
    expect(mine.data!.status).not.toBe('verified');
    expect(
      (
        await second.resend.emails.send({
          from: `hello@${name}`,
          to: 'delivered@resend.dev',
          subject: 'too early',
          text: 'x',
        })
      ).error?.statusCode,
    ).toBe(422);
  });
});

/**
 * An API host in this process for a deployment that serves tracking hosts (the shared local host
 * serves none): the same handlers on the same table, with a DNS the test plays for CNAME lookups.
 */
const trackingDeployment = async () => {
  const published = new Map<string, string[]>();
  const deps = createDeps(readConfig({ ...local().env, TRACKING_CNAME_TARGET: 'track.mailstack.example' }), {
    cnames: { cname: async (host) => published.get(host) ?? [] },
  });
  setDeps(deps);
  const server = createApiServer(resolve(import.meta.dirname, '../../functions'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    deps,
    published,
    /** An SDK client of this host. */
    sdk: (secret: string) => {
      const before = process.env.RESEND_BASE_URL;
      process.env.RESEND_BASE_URL = baseUrl;
      try {
        return new Resend(secret);
      } finally {
        process.env.RESEND_BASE_URL = before;
      }
    },
    close: () =>
      new Promise<void>((r) => {
        setDeps(undefined);
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
};

describe("the tracking host in the domain's records", () => {
  it('on a deployment that serves tracking hosts: a Tracking CNAME while open or click tracking is on, verified once published, and links move to the host', async () => {
    const host = await trackingDeployment();
    try {
      const { secret, team } = await newTeam({ plan: 'pro' });
      const resend = host.sdk(secret);
      const doc = (await (await fetch(`${local().baseUrl}/openapi.json`)).json()) as Record<string, any>;
      const get = async (id: string) => {
        const got = await resend.domains.get(id);
        expect(got.error).toBeNull();
        expectReferenceShape('GET', '/domains/{domain_id}', 200, got.data);
        expect(
          responseProblems(doc, 'GET', `/domains/${id}`, 200, 'application/json', JSON.stringify(got.data)),
        ).toEqual([]);
        return got.data!;
      };
      const tracking = (d: { records: { record: string }[] }) => d.records.filter((r) => r.record === 'Tracking');
      const origin = async (id: string) => trackingOrigin(await loadDomain(host.deps, team.id, id), host.deps.config);

      // No tracking: no Tracking record.
      const created = await resend.domains.create({ name: 'news.example.com' });
      expect(created.error).toBeNull();
      expect(tracking(created.data!)).toEqual([]);
      const id = created.data!.id;

      // Click tracking on: the CNAME of the default subdomain, waiting with the domain.
      await resend.domains.update({ id, clickTracking: true });
      expect(tracking(await get(id))).toEqual([
        {
          record: 'Tracking',
          name: 'links',
          type: 'CNAME',
          ttl: 'Auto',
          status: 'not_started',
          value: 'track.mailstack.example',
        },
      ]);
      // The domain verifies; the CNAME is not published yet, so the record waits and links stay on the API origin.
      await resend.domains.verify(id);
      const verified = await get(id);
      expect(verified.status).toBe('verified');
      expect(verified.records.filter((r) => r.record !== 'Tracking').every((r) => r.status === 'verified')).toBe(true);
      expect(tracking(verified)).toMatchObject([{ name: 'links', status: 'pending' }]);
      expect(await origin(id)).toBe(local().baseUrl);

      // Published (any case, trailing dot): verified at the next read, and links use the tracking host.
      host.published.set('links.news.example.com', ['Track.Mailstack.Example.']);
      expect(tracking(await get(id))).toMatchObject([{ name: 'links', status: 'verified' }]);
      expect(await origin(id)).toBe('https://links.news.example.com');
      const html = await trackHtml(host.deps, '<html><body><a href="https://example.com/x">x</a></body></html>', {
        teamId: team.id,
        emailId: 'e1',
        open: true,
        click: true,
        origin: await origin(id),
      });
      expect(html).toMatch(/<a href="https:\/\/links\.news\.example\.com\/t\/c\/[^"]+">x<\/a>/);
      expect(html).toMatch(/<img src="https:\/\/links\.news\.example\.com\/t\/o\/[^"]+"/);

      // A new subdomain: its record waits, and links keep the verified host until the new one verifies.
      await resend.domains.update({ id, trackingSubdomain: 'go' } as any);
      expect(tracking(await get(id))).toMatchObject([{ name: 'go', status: 'pending' }]);
      expect(await origin(id)).toBe('https://links.news.example.com');
      host.published.set('go.news.example.com', ['track.mailstack.example']);
      await resend.domains.verify(id);
      expect(tracking(await get(id))).toMatchObject([{ name: 'go', status: 'verified' }]);
      expect(await origin(id)).toBe('https://go.news.example.com');

      // Open and click tracking both off: no Tracking record.
      await resend.domains.update({ id, clickTracking: false, openTracking: false });
      expect(tracking(await get(id))).toEqual([]);
    } finally {
      await host.close();
    }
  });

  it('on a deployment that serves none (the local host): no Tracking record, and links use the API origin', async () => {
    const { resend, team } = await newTeam({ plan: 'pro' });
    const { data } = await resend.domains.create({
      name: 'plain.example.com',
      openTracking: true,
      clickTracking: true,
    } as any);
    await resend.domains.verify(data!.id);
    const got = await resend.domains.get(data!.id);
    expect(got.data).toMatchObject({ open_tracking: true, click_tracking: true, status: 'verified' });
    expect(got.data!.records.map((r) => r.record)).toEqual(['SPF', 'SPF', 'DKIM', 'DKIM', 'DKIM']);
    expect(trackingOrigin(await loadDomain(testDeps(), team.id, data!.id), testDeps().config)).toBe(local().baseUrl);
  });
});
