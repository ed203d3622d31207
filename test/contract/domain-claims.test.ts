import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import { CreateEmailIdentityCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { readConfig } from '@mailstack/core/runtime/config';
import { createDeps, setDeps } from '@mailstack/core/runtime/deps';
import { createApiServer } from '../../lib/local/server.ts';
import { afterLookupStaleness, local, newTeam } from '../support/local.ts';
import { expectReferenceShape } from '../support/openapi.ts';
import { eventsOf } from '../support/events.ts';
import { emailReaches } from '../support/wait.ts';
import { personIn, signInOverHttp } from '../support/dashboard.ts';

const HOUR = 3_600_000;

/**
 * An API host in this process on the shared table and SES stand-in, with a DNS the test publishes
 * TXT records in and a clock it can move (the claim's grace period and expiry are days long).
 */
const claimsDeployment = async () => {
  const published = new Map<string, string[]>();
  let offset = 0;
  const deps = createDeps(readConfig(local().env), {
    txt: { txt: async (host) => published.get(host) ?? [] },
    clock: { now: () => Date.now() + offset, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) },
  });
  setDeps(deps);
  const server = createApiServer(resolve(import.meta.dirname, '../../functions'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    published,
    /** Moves this host's clock to `ms` from now. */
    at: (ms: number) => {
      offset = ms;
    },
    /** A new team of this host: its SDK client and key. */
    team: async () => {
      const t = await newTeam({ plan: 'pro' });
      const before = process.env.RESEND_BASE_URL;
      process.env.RESEND_BASE_URL = baseUrl;
      try {
        return { ...t, resend: new Resend(t.secret) };
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

const uniqueName = (label: string) => `${label}-${randomUUID().slice(0, 8)}.example.com`;
const dkim = (d: { records: { record: string; value: string }[] }) =>
  d.records.filter((r) => r.record === 'DKIM').map((r) => r.value);

describe('domain claims through the official SDK', () => {
  it("moves a domain another team holds: TXT proof, blocks while the holder has a grace period, scheduled mail or recent sends, then a fresh domain for the claimant and the holder's sends refused", async () => {
    const host = await claimsDeployment();
    try {
      // Prepare: the holder sends from its verified domain.
      const holder = await host.team();
      const claimant = await host.team();
      const stranger = await host.team();
      const name = uniqueName('claimed');
      const held = (await holder.resend.domains.create({ name })).data!;
      await holder.resend.domains.verify(held.id);
      const heldBefore = (await holder.resend.domains.get(held.id)).data!;
      expect(heldBefore.status).toBe('verified');

      // Create: a pending claim with the TXT record of a fresh random token, and a placeholder domain.
      const created = await claimant.resend.domains.claims.create({ name });
      expect(created.error).toBeNull();
      expectReferenceShape('POST', '/domains/claim', 201, created.data);
      const claim = created.data!;
      expect(claim).toMatchObject({
        object: 'domain_claim',
        name,
        status: 'pending',
        region: 'us-east-1',
        blocked_reason: null,
        failure_reason: null,
        record: { type: 'TXT', name, ttl: 'Auto' },
      });
      expect(claim.record.value).toMatch(/^mailstack-domain-verification=[A-Za-z0-9_-]{32}$/);
      expect(Date.parse(claim.expires_at) - Date.parse(claim.created_at)).toBe(7 * 24 * HOUR);
      const domainId = claim.domain_id!;
      // An identical pending claim is answered unchanged with 200; the SDK reads the same claim.
      const again = await fetch(`${host.baseUrl}/domains/claim`, {
        method: 'POST',
        headers: { authorization: `Bearer ${claimant.secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual(claim);
      const got = await claimant.resend.domains.claims.get(domainId);
      expectReferenceShape('GET', '/domains/{domain_id}/claim', 200, got.data);
      expect(got.data).toEqual(claim);

      // Another team's claim id answers 404 on both routes.
      expect((await stranger.resend.domains.claims.get(domainId)).error).toMatchObject({ statusCode: 404 });
      expect((await stranger.resend.domains.claims.verify(domainId)).error).toMatchObject({ statusCode: 404 });
      expect((await holder.resend.domains.claims.get(held.id)).error).toMatchObject({ statusCode: 404 });

      // Verify before the record exists: still pending; the placeholder neither verifies nor sends.
      const early = await claimant.resend.domains.claims.verify(domainId);
      expectReferenceShape('POST', '/domains/{domain_id}/claim/verify', 200, early.data);
      expect(early.data).toMatchObject({ status: 'pending', blocked_reason: null });
      await claimant.resend.domains.verify(domainId);
      expect((await claimant.resend.domains.get(domainId)).data!.status).toBe('not_started');
      const tooEarly = await claimant.resend.emails.send({
        from: `a@${name}`,
        to: 'delivered@resend.dev',
        subject: 'x',
        text: 'x',
      });
      expect(tooEarly.error).toMatchObject({ statusCode: 422 });

      // The record published (74 hours ago by this host's clock): proven, then blocked by the holder's grace period.
      host.published.set(name, ['v=spf1 -all', claim.record.value]);
      host.at(-74 * HOUR);
      expect((await claimant.resend.domains.claims.verify(domainId)).data).toMatchObject({
        status: 'blocked',
        blocked_reason: 'grace_period',
      });
      host.at(0);
      expect((await eventsOf(holder.team.id)).map((e) => e.type)).toContain('domain.claim.verified');

      // The holder sends now and has an email scheduled from the domain: the claim waits for both.
      const sent = await holder.resend.emails.send({
        from: `a@${name}`,
        to: 'delivered@resend.dev',
        subject: 'still mine',
        text: 'x',
      });
      await emailReaches(holder.resend, sent.data!.id, ['delivered']);
      const later = await holder.resend.emails.send({
        from: `a@${name}`,
        to: 'delivered@resend.dev',
        subject: 'later',
        text: 'x',
        scheduledAt: new Date(Date.now() + 72 * HOUR).toISOString(),
      });
      expect(later.error).toBeNull();
      expect((await claimant.resend.domains.claims.verify(domainId)).data).toMatchObject({
        status: 'blocked',
        blocked_reason: 'pending_scheduled_emails',
      });
      expect((await holder.resend.emails.cancel(later.data!.id)).error).toBeNull();
      expect((await claimant.resend.domains.claims.get(domainId)).data).toMatchObject({
        status: 'blocked',
        blocked_reason: 'recent_owner_activity',
      });

      // A day without the holder's sends: the claim completes.
      host.at(25 * HOUR);
      const done = await claimant.resend.domains.claims.verify(domainId);
      expect(done.data).toMatchObject({ status: 'completed', blocked_reason: null, domain_id: domainId });
      host.at(0);

      // The claimant's domain has fresh DKIM keys and verifies with the standard verify; it sends.
      const mine = (await claimant.resend.domains.get(domainId)).data!;
      expect(mine.status).toBe('not_started');
      expect(dkim(mine)).toHaveLength(3);
      expect(dkim(mine).some((v) => dkim(heldBefore).includes(v))).toBe(false);
      await claimant.resend.domains.verify(domainId);
      expect((await claimant.resend.domains.get(domainId)).data!.status).toBe('verified');
      await afterLookupStaleness();
      const fromClaimant = await claimant.resend.emails.send({
        from: `new@${name}`,
        to: 'delivered@resend.dev',
        subject: 'mine now',
        text: 'x',
      });
      expect(fromClaimant.error).toBeNull();
      await emailReaches(claimant.resend, fromClaimant.data!.id, ['delivered']);

      // The previous holder's domain stops sending (the spec's refusal for an unverified domain) and never verifies again.
      expect((await holder.resend.domains.get(held.id)).data!.status).toBe('failed');
      await holder.resend.domains.verify(held.id);
      expect((await holder.resend.domains.get(held.id)).data!.status).toBe('failed');
      const refused = await holder.resend.emails.send({
        from: `a@${name}`,
        to: 'delivered@resend.dev',
        subject: 'not mine',
        text: 'x',
      });
      expect(refused.error).toMatchObject({ statusCode: 422, name: 'validation_error' });

      // Both teams got the event.
      expect((await eventsOf(holder.team.id)).filter((e) => e.type === 'domain.claim.completed')).toMatchObject([
        { data: { domain_id: held.id, name, status: 'completed' } },
      ]);
      expect((await eventsOf(claimant.team.id)).filter((e) => e.type === 'domain.claim.completed')).toMatchObject([
        { data: { object: 'domain_claim', id: claim.id, domain_id: domainId, status: 'completed' } },
      ]);

      // Each team's dashboard says what happened.
      const holderPage = await signInOverHttp((await personIn(holder.team.id)).link);
      expect(await (await holderPage.get(`/t/${holder.team.id}/domains`)).text()).toContain('claimed by another team');
      expect(await (await holderPage.get(`/t/${holder.team.id}/domains/${held.id}`)).text()).toContain(
        'Another team proved control of this domain',
      );
      const claimantPage = await signInOverHttp((await personIn(claimant.team.id)).link);
      expect(await (await claimantPage.get(`/t/${claimant.team.id}/domains/${domainId}`)).text()).toContain(
        'This team claimed the domain',
      );

      // The old holder deleting its domain leaves the claimant's identity.
      expect((await holder.resend.domains.remove(held.id)).error).toBeNull();
      expect((await claimant.resend.domains.get(domainId)).data!.status).toBe('verified');
    } finally {
      await host.close();
    }
  }, 90_000);

  it('takes over an SES identity made outside the deployment once the TXT record proves control, and never deletes it', async () => {
    const host = await claimsDeployment();
    try {
      const claimant = await host.team();
      const name = uniqueName('outside');
      const ses = new SESv2Client({
        endpoint: local().env.SES_ENDPOINT,
        region: 'us-east-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      });
      await ses.send(new CreateEmailIdentityCommand({ EmailIdentity: name }));
      await ses.send(new GetEmailIdentityCommand({ EmailIdentity: name }));
      expect((await claimant.resend.domains.create({ name })).error).toMatchObject({ statusCode: 409 });

      const claim = (await claimant.resend.domains.claims.create({ name })).data!;
      host.published.set(name, [claim.record.value]);
      const done = await claimant.resend.domains.claims.verify(claim.domain_id!);

      // No team held it: nothing blocks; the domain sends through that identity (verified by SES).
      expect(done.data).toMatchObject({ status: 'completed' });
      expect((await claimant.resend.domains.get(claim.domain_id!)).data!.status).toBe('verified');
      expect((await claimant.resend.domains.remove(claim.domain_id!)).error).toBeNull();
      expect((await ses.send(new GetEmailIdentityCommand({ EmailIdentity: name }))).VerifiedForSendingStatus).toBe(
        true,
      );
    } finally {
      await host.close();
    }
  });

  it('refuses a claim of a name nobody holds (422) or of the team’s own domain (409), and expires an unproven claim after 7 days', async () => {
    const host = await claimsDeployment();
    try {
      const holder = await host.team();
      const claimant = await host.team();
      const free = await claimant.resend.domains.claims.create({ name: uniqueName('free') });
      expect(free.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
      expect(free.error!.message).toContain('POST /domains');
      const own = uniqueName('own');
      await holder.resend.domains.create({ name: own });
      expect((await holder.resend.domains.claims.create({ name: own })).error).toMatchObject({
        statusCode: 409,
        name: 'conflict',
      });

      const claim = (await claimant.resend.domains.claims.create({ name: own })).data!;
      host.at(7 * 24 * HOUR + 60_000);
      expect((await claimant.resend.domains.claims.get(claim.domain_id!)).data).toMatchObject({ status: 'expired' });
      // The placeholder went with it: the team may claim again (a new claim, 201).
      expect((await claimant.resend.domains.get(claim.domain_id!)).error).toMatchObject({ statusCode: 404 });
      const next = await claimant.resend.domains.claims.create({ name: own });
      expect(next.data).toMatchObject({ status: 'pending' });
      expect(next.data!.id).not.toBe(claim.id);
    } finally {
      await host.close();
    }
  });
});
