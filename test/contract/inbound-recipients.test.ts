import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import { Resend } from 'resend';
import { startLocalHost, type LocalHost } from '../../lib/local/host.ts';
import { createTeam } from '@mailstack/core/domain/teams/create-team';
import { createApiKey } from '@mailstack/core/domain/api-keys/create-api-key';
import { byOperator } from '@mailstack/core/domain/api-keys/key-audit';
import { createDomain } from '@mailstack/core/domain/domains/create-domain';
import { deleteDomain } from '@mailstack/core/domain/domains/delete-domain';

/**
 * The inbound receipt rule names the domains the deployment's teams hold. A host of its own (an
 * empty table): the run's host holds every test's domains, past the 100 one rule names.
 */
describe('the inbound receipt rule names the domains the teams hold', () => {
  let host: LocalHost;

  beforeAll(async () => {
    host = await startLocalHost({
      port: 0,
      smtpPort: 0,
      dashboardPort: 0,
      inboundPort: 0,
      memory: true,
      env: { LOG_LEVEL: 'ERROR', LOOKUP_CACHE_MS: '1000' },
    });
  }, 120_000);

  afterAll(async () => {
    await host?.stop();
  });

  /** A team of this host, with its API client. */
  const team = async () => {
    const t = await createTeam(host.deps, { name: 'Receivers' });
    const { secret } = await createApiKey(
      host.deps,
      { teamId: t.id, name: 'test', permission: 'full_access' },
      byOperator('test setup'),
    );
    return { team: t, resend: new Resend(secret, { baseUrl: host.baseUrl }) };
  };

  /** What this host's MX answers for one recipient: the SMTP reply code of the hand-off. */
  const mxAnswer = async (to: string): Promise<number> => {
    const mx = nodemailer.createTransport({
      host: '127.0.0.1',
      port: host.inbound.port,
      secure: false,
      ignoreTLS: true,
    });
    try {
      const info = await mx.sendMail({ from: 'ada@customer.example.org', to, subject: 'Hi', text: 'Words.' });
      return Number(info.response.slice(0, 3));
    } catch (error) {
      return Number((error as { responseCode?: number }).responseCode ?? 0);
    } finally {
      mx.close();
    }
  };

  const named = async () => (await host.deps.inboundRecipients!.current()).recipients;

  it("takes mail for a team's domain, refuses a domain no team holds, and stops taking a domain once it is deleted", async () => {
    // Prepare: no domain held yet, so the rule is off.
    expect(await host.deps.inboundRecipients!.current()).toEqual({ enabled: false, recipients: [] });
    const { resend } = await team();
    const name = `held-${randomUUID().slice(0, 8)}.example.com`;

    // Act: the team adds a domain through the API.
    const { data, error } = await resend.domains.create({ name });
    expect(error).toBeNull();

    // Assess: named, so taken (no mailbox has the address: accepted and dropped with a record).
    expect(await named()).toEqual([name]);
    expect(await mxAnswer(`someone@${name}`)).toBe(250);
    // No team holds it: refused at RCPT TO, as SES refuses mail no receipt rule names.
    expect(await mxAnswer(`someone@nobody-holds-${randomUUID().slice(0, 8)}.example.com`)).toBe(550);
    // A domain recipient covers that domain only, not its subdomains.
    expect(await mxAnswer(`someone@sub.${name}`)).toBe(550);

    expect((await resend.domains.remove(data!.id)).error).toBeNull();
    expect(await named()).toEqual([]);
    expect(await mxAnswer(`someone@${name}`)).toBe(550);
  });

  it('two teams adding domains at once are both named, and a delete takes only its own name out', async () => {
    // Prepare
    const [a, b] = await Promise.all([team(), team()]);
    const [nameA, nameB] = [`a-${randomUUID().slice(0, 8)}.example.com`, `b-${randomUUID().slice(0, 8)}.example.com`];

    // Act
    const [domainA] = await Promise.all([
      createDomain(host.deps, a.team, { name: nameA } as never),
      createDomain(host.deps, b.team, { name: nameB } as never),
    ]);

    // Assess
    expect(await named()).toEqual([nameA, nameB].sort());
    await deleteDomain(host.deps, a.team.id, domainA.id);
    expect(await named()).toEqual([nameB]);
  });
});
