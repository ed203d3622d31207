import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import { startLocalHost, type LocalHost } from '../../lib/local/host.ts';
import { createTeam } from '@mailstack/core/domain/teams/create-team';
import { createApiKey } from '@mailstack/core/domain/api-keys/create-api-key';
import { byOperator } from '@mailstack/core/domain/api-keys/key-audit';
import { getEmail } from '@mailstack/core/domain/emails/get-email';
import { waitFor } from '../support/wait.ts';

/**
 * Teams sending as SES tenants (`SES_TENANTS`, `mailstack:sesTenants`): a host of its own, started
 * with tenants on, beside the run's host (which sends as the account).
 */
describe('SES tenants', () => {
  let host: LocalHost;

  beforeAll(async () => {
    host = await startLocalHost({
      port: 0,
      smtpPort: 0,
      dashboardPort: 0,
      inboundPort: 0,
      memory: true,
      env: { LOG_LEVEL: 'ERROR', LOOKUP_CACHE_MS: '1000', SES_TENANTS: 'true' },
    });
  }, 120_000);

  afterAll(async () => {
    await host?.stop();
  });

  /** A team of this host with a verified domain. */
  const sendingTeam = async (name: string) => {
    const team = await createTeam(host.deps, { name });
    const { secret } = await createApiKey(
      host.deps,
      { teamId: team.id, name: 'test', permission: 'full_access' },
      byOperator('test setup'),
    );
    const resend = new Resend(secret, { baseUrl: host.baseUrl });
    const domain = `${team.id.slice(-12)}.example.com`;
    const { data, error } = await resend.domains.create({ name: domain });
    if (error) throw new Error(`could not add ${domain}: ${error.message}`);
    await resend.domains.verify(data!.id);
    return { team, resend, from: `Acme <hello@${domain}>` };
  };

  const sent = (teamId: string, id: string) =>
    waitFor(
      () => getEmail(host.deps, teamId, id),
      (e) => ['sent', 'delivered'].includes(e.status),
      { what: `email ${id} sent`, timeoutMs: 15_000 },
    );

  it('sends each team as its own tenant with its own configuration set, and a tenant SES paused pauses only its team', async () => {
    // Prepare: two teams of the tenants host.
    const a = await sendingTeam('Team A');
    const b = await sendingTeam('Team B');

    // Act: each sends one email.
    const first = await a.resend.emails.send({ from: a.from, to: 'delivered@resend.dev', subject: 'a', text: 'a' });
    const second = await b.resend.emails.send({ from: b.from, to: 'delivered@resend.dev', subject: 'b', text: 'b' });
    expect(first.error).toBeNull();
    expect(second.error).toBeNull();
    await sent(a.team.id, first.data!.id);
    await sent(b.team.id, second.data!.id);

    // Assess: each SendEmail named its team's own tenant and that tenant's configuration set.
    const tenants = host.provider.tenants;
    const ofA = tenants.sends.get(first.data!.id);
    const ofB = tenants.sends.get(second.data!.id);
    expect(ofA?.tenant).toContain(a.team.id.replaceAll('-', ''));
    expect(ofB?.tenant).toContain(b.team.id.replaceAll('-', ''));
    expect(ofA?.tenant).not.toBe(ofB?.tenant);
    expect(ofA?.configurationSet).toBe(ofA?.tenant);
    expect(ofB?.configurationSet).toBe(ofB?.tenant);
    // The tenant holds its configuration set and the team's sending identity, under SES's standard policy.
    const tenantA = tenants.tenants.get(ofA!.tenant!)!;
    expect([...tenantA.resources].sort()).toEqual(
      [`configuration-set/${ofA!.configurationSet}`, `identity/${a.from.split('@')[1]!.slice(0, -1)}`].sort(),
    );
    expect(tenantA.policy).toMatch(/reputation-policy\/standard$/);

    // Act: SES pauses team A's tenant (its own reputation findings); A's next email meets the pause.
    expect(tenants.pause(ofA!.tenant!)).toBe(true);
    const held = await a.resend.emails.send({ from: a.from, to: 'delivered@resend.dev', subject: 'a2', text: 'a2' });
    expect(held.error).toBeNull();

    // Assess: team A is paused (403 sending_paused), its email waits queued, not failed; team B sends on.
    await waitFor(
      () => a.resend.emails.send({ from: a.from, to: 'delivered@resend.dev', subject: 'a3', text: 'a3' }),
      (r) => (r.error?.name as string | undefined) === 'sending_paused',
      { what: "team A's sends refused with sending_paused", timeoutMs: 15_000 },
    );
    const refused = await a.resend.emails.send({ from: a.from, to: 'x@example.com', subject: 'a4', text: 'a4' });
    expect(refused.error).toMatchObject({ statusCode: 403, name: 'sending_paused' });
    expect(refused.error!.message).toContain(ofA!.tenant!);
    expect((await getEmail(host.deps, a.team.id, held.data!.id)).status).toBe('queued');
    const other = await b.resend.emails.send({ from: b.from, to: 'delivered@resend.dev', subject: 'b2', text: 'b2' });
    expect(other.error).toBeNull();
    await sent(b.team.id, other.data!.id);

    // Act: SES reinstates the tenant. Assess: the held email goes (tried every minute), and that lifts A's pause.
    expect(tenants.reinstate(ofA!.tenant!)).toBe(true);
    await waitFor(
      () => getEmail(host.deps, a.team.id, held.data!.id),
      (e) => ['sent', 'delivered'].includes(e.status),
      { what: "team A's held email sent once the tenant is reinstated", timeoutMs: 90_000 },
    );
    await waitFor(
      () => a.resend.emails.send({ from: a.from, to: 'delivered@resend.dev', subject: 'a5', text: 'a5' }),
      (r) => r.error === null,
      { what: "team A's sends accepted again", timeoutMs: 15_000 },
    );
  }, 180_000);
});
