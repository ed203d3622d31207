import { describe, expect, it } from 'vitest';
import { newTenantState, refuseTenantSend, tenantCall } from '../../../lib/local/stand-ins/ses-tenants.ts';
import { tenantNamePrefix } from '@mailstack/core/adapters/aws/sesv2-tenants';

/** A stand-in with tenant `t` holding configuration set `t` and identity `example.com`. */
const ready = () => {
  const state = newTenantState();
  const call = (method: string, path: string, input: Record<string, unknown> = {}) =>
    tenantCall(state, method, path, input, (name) => name === 'example.com');
  call('POST', '/v2/email/configuration-sets', { ConfigurationSetName: 't' });
  const created = call('POST', '/v2/email/tenants', { TenantName: 't' })!.body as { TenantArn: string };
  return { state, call, arn: created.TenantArn };
};

describe("the SES stand-in's tenants", () => {
  it('refuses what SES refuses: a repeated create, an association with a resource that does not exist, an unknown policy', () => {
    const { call, arn } = ready();
    expect(call('POST', '/v2/email/tenants', { TenantName: 't' })).toMatchObject({ type: 'AlreadyExistsException' });
    expect(call('POST', '/v2/email/configuration-sets', { ConfigurationSetName: 't' })).toMatchObject({
      type: 'AlreadyExistsException',
    });
    expect(
      call('POST', '/v2/email/tenants/resources', {
        TenantName: 't',
        ResourceArn: 'arn:aws:ses:us-east-1:000000000000:identity/other.example',
      }),
    ).toMatchObject({ status: 404, type: 'NotFoundException' });
    expect(
      call('PUT', `/v2/email/reputation/entities/RESOURCE/${encodeURIComponent(arn)}/policy`, {
        ReputationEntityPolicy: 'arn:aws:ses:us-east-1:aws:reputation-policy/lenient',
      }),
    ).toMatchObject({ status: 400, type: 'BadRequestException' });
  });

  it('takes a send naming the tenant only with its configuration set and the sender identity associated, and not while paused', () => {
    const { state, call } = ready();
    const send = { TenantName: 't', ConfigurationSetName: 't', FromEmailAddress: 'hello@example.com' };
    expect(refuseTenantSend(state, { ...send, TenantName: 'u' })).toMatchObject({ type: 'NotFoundException' });
    expect(refuseTenantSend(state, send)).toMatchObject({ type: 'BadRequestException' });
    for (const resource of ['configuration-set/t', 'identity/example.com'])
      expect(
        call('POST', '/v2/email/tenants/resources', {
          TenantName: 't',
          ResourceArn: `arn:aws:ses:us-east-1:000000000000:${resource}`,
        }),
      ).toMatchObject({ status: 200 });
    expect(refuseTenantSend(state, send)).toBeUndefined();
    expect(refuseTenantSend(state, { ...send, ConfigurationSetName: 'other' })).toMatchObject({
      type: 'BadRequestException',
    });
    // A send without a tenant is the account's, as before.
    expect(refuseTenantSend(state, { FromEmailAddress: 'hello@example.com' })).toBeUndefined();
    state.pause('t');
    expect(refuseTenantSend(state, send)).toMatchObject({ status: 400, type: 'SendingPausedException' });
    expect(call('POST', '/v2/email/tenants/get', { TenantName: 't' })!.body).toMatchObject({
      Tenant: { SendingStatus: 'DISABLED' },
    });
    state.reinstate('t');
    expect(refuseTenantSend(state, send)).toBeUndefined();
  });

  it("names a team's tenant within SES's 64 characters, from the stack's prefix, whatever the stack name", () => {
    const teamId = '0196f7a2-1c2d-7e3f-8a4b-5c6d7e8f9a0b';
    for (const base of ['Mailstack-mail', `${'A'.repeat(101)}-mail`]) {
      const name = `${tenantNamePrefix(base)}${teamId.replaceAll('-', '')}`;
      expect(name.length).toBeLessThanOrEqual(64);
      expect(name).toMatch(/^[\w-]{1,64}$/);
      expect(name.startsWith(base.slice(0, 31))).toBe(true);
    }
  });
});
