import { describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import {
  awaitFreshWindow,
  call,
  fromAddress,
  local,
  newTeam,
  ownLoopbackAddress,
  testDeps,
  uploadSlowly,
} from '../support/local.ts';
import { revokeApiKey } from '@mailstack/core/domain/api-keys/revoke-api-key';
import { byOperator } from '@mailstack/core/domain/api-keys/key-audit';
import { getUsage } from '@mailstack/core/domain/usage/get-usage';
import { createDeps } from '@mailstack/core/runtime/deps';

/** Runs `count` calls with bounded concurrency and returns their statuses. */
const burst = async (count: number, concurrency: number, fn: () => Promise<{ status: number }>) => {
  const statuses: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next++;
        statuses.push((await fn()).status);
      }
    }),
  );
  return statuses;
};

describe('API conventions', () => {
  describe('answers each authentication and input error with its status and name', () => {
    it.each([
      {
        case: 'no Authorization header',
        method: 'GET',
        path: '/domains',
        auth: undefined,
        body: undefined,
        status: 401,
        name: 'missing_api_key',
      },
      {
        case: 'an unknown key',
        method: 'GET',
        path: '/domains',
        auth: 'ms_unknown',
        body: undefined,
        status: 401,
        name: 'invalid_api_key',
      },
      {
        case: 'a body that is not JSON',
        method: 'POST',
        path: '/domains',
        auth: 'team',
        body: '{"name": ',
        status: 400,
        name: 'invalid_payload',
      },
      {
        case: 'an unknown field',
        method: 'POST',
        path: '/domains',
        auth: 'team',
        body: { name: 'x.example.com', colour: 'red' },
        status: 422,
        name: 'validation_error',
        says: 'colour',
      },
      {
        case: 'a field of the wrong type',
        method: 'POST',
        path: '/domains',
        auth: 'team',
        body: { name: 42 },
        status: 422,
        name: 'validation_error',
        says: 'name',
      },
      {
        case: 'a missing required field',
        method: 'POST',
        path: '/domains',
        auth: 'team',
        body: {},
        status: 422,
        name: 'validation_error',
        says: 'name',
      },
      {
        case: 'a limit above 100',
        method: 'GET',
        path: '/domains?limit=101',
        auth: 'team',
        body: undefined,
        status: 422,
        name: 'validation_error',
        says: 'limit',
      },
      {
        case: 'a limit of 0',
        method: 'GET',
        path: '/domains?limit=0',
        auth: 'team',
        body: undefined,
        status: 422,
        name: 'validation_error',
        says: 'limit',
      },
      {
        case: 'both after and before',
        method: 'GET',
        path: `/domains?after=${crypto.randomUUID()}&before=${crypto.randomUUID()}`,
        auth: 'team',
        body: undefined,
        status: 422,
        name: 'validation_error',
        // A rule of the whole query names the query, not the request body.
        says: 'The query: Give `after` or `before`, not both.',
      },
      {
        case: 'a cursor that is not an id',
        method: 'GET',
        path: '/domains?after=zzz',
        auth: 'team',
        body: undefined,
        status: 422,
        name: 'validation_error',
        says: 'after',
      },
      {
        case: 'an unknown endpoint',
        method: 'GET',
        path: '/nothing-here',
        auth: 'team',
        body: undefined,
        status: 404,
        name: 'not_found',
      },
      {
        case: 'a method the path does not have',
        method: 'PUT',
        path: '/domains',
        auth: 'team',
        body: undefined,
        status: 405,
        name: 'method_not_allowed',
      },
    ])('$case → $status $name', async ({ method, path, auth, body, status, name, says }) => {
      // Prepare
      const { secret } = await newTeam();
      // Act
      const out = await call(method, path, {
        ...(auth ? { key: auth === 'team' ? secret : auth } : {}),
        ...(body !== undefined ? { body } : {}),
      });
      // Assess
      expect(out.status).toBe(status);
      expect(out.json).toMatchObject({ statusCode: status, name });
      expect(typeof out.json.message).toBe('string');
      if (says) expect(out.json.message).toContain(says);
      expect(out.headers.get('content-type')).toContain('application/json');
      // A 405 names the methods the path has in its Allow header (RFC 9110).
      if (status === 405) expect(out.headers.get('allow')).toBe('POST, GET');
    });
  });

  it('answers missing_api_key to an Authorization header that carries no key (an SDK given an empty key sends `Bearer `)', async () => {
    for (const authorization of ['Bearer ', 'Bearer', '']) {
      // Act
      const out = await call('GET', '/domains', { headers: { authorization } });

      // Assess
      expect(out.status, JSON.stringify(authorization)).toBe(401);
      expect(out.json).toMatchObject({ statusCode: 401, name: 'missing_api_key' });
    }
    // Another scheme carries something, which is no key of ours.
    expect((await call('GET', '/domains', { headers: { authorization: 'Basic Zm9vOmJhcg==' } })).json).toMatchObject({
      name: 'invalid_api_key',
    });
  });

  it('refuses a key revoked in another process with invalid_api_key at its next request, though the host holds a copy of it', async () => {
    const { resend, team, key } = await newTeam();
    // The first request marks the key used (a write, which drops the host's copy); the second leaves it a fresh copy.
    expect((await resend.domains.list()).error).toBeNull();
    expect((await resend.domains.list()).error).toBeNull();
    await revokeApiKey(testDeps(), team.id, key.id, byOperator('test setup'));
    // Spec §5 rule 2: at once, not after the lookup staleness (the host's copy of the key is fresh).
    expect((await resend.domains.list()).error).toMatchObject({ statusCode: 401, name: 'invalid_api_key' });
    const sent = await resend.emails.send({
      from: 'a@example.com',
      to: 'delivered@resend.dev',
      subject: 's',
      text: 't',
    });
    expect(sent.error).toMatchObject({ statusCode: 401, name: 'invalid_api_key' });
  });

  it('refuses a sending-access key outside the sending routes with restricted_api_key', async () => {
    const { addKey } = await newTeam();
    const sending = await addKey('sending_access');
    expect((await sending.resend.domains.list()).error).toMatchObject({ statusCode: 403, name: 'restricted_api_key' });
    expect((await sending.resend.domains.create({ name: 'x.example.com' })).error).toMatchObject({
      statusCode: 403,
      name: 'restricted_api_key',
    });
  });

  it('refuses a body over 25 MiB with payload_too_large', async () => {
    const { secret } = await newTeam();
    const out = await call('POST', '/domains', {
      key: secret,
      body: JSON.stringify({ name: 'a.example.com', pad: 'x'.repeat(25 * 1024 * 1024) }),
    });
    expect(out.status).toBe(413);
    expect(out.json).toMatchObject({ statusCode: 413, name: 'payload_too_large' });
  });

  it('answers a slow upload past 25 MiB with 413 and reads it to its end before closing, so the client reads the answer instead of a cut connection', async () => {
    const { secret } = await newTeam();
    const out = await uploadSlowly(local().baseUrl, '/domains', 26 * 1024 * 1024, {
      authorization: `Bearer ${secret}`,
    });
    expect(out.writeError).toBeUndefined();
    expect(out.status).toBe(413);
    expect(out.head.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(out.body)).toMatchObject({ statusCode: 413, name: 'payload_too_large' });
  });

  it('accepts an empty body with a JSON content type on a POST that takes none, as the SDK sends it', async () => {
    const { resend, secret } = await newTeam();
    const { data } = await resend.domains.create({ name: 'empty.example.com' });
    const out = await call('POST', `/domains/${data!.id}/verify`, {
      key: secret,
      headers: { 'content-type': 'application/json' },
    });
    expect(out.status).toBe(200);
    expect(out.json).toEqual({ object: 'domain', id: data!.id });
  });

  it('percent-decodes path segments', async () => {
    const { resend, secret } = await newTeam();
    const { data } = await resend.domains.create({ name: 'decode.example.com' });
    const encoded = data!.id.replaceAll('-', '%2D');
    const out = await call('GET', `/domains/${encoded}`, { key: secret });
    expect(out.status).toBe(200);
    expect(out.json.id).toBe(data!.id);
  });

  it('answers 429 rate_limit_exceeded with Retry-After past 600 requests a minute on one key', async () => {
    await awaitFreshWindow(40);
    const { secret } = await newTeam();
    const statuses = await burst(601, 25, () => call('GET', '/usage', { key: secret }));
    expect(statuses.filter((s) => s === 200)).toHaveLength(600);
    const refused = await call('GET', '/usage', { key: secret });
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ statusCode: 429, name: 'rate_limit_exceeded' });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit-limit')).toBeNull();
  }, 120_000);

  it('answers 429 past 3,000 requests a minute across all keys of a team', async () => {
    // The whole minute: 3,000 requests beside the rest of the suite can take most of it.
    await awaitFreshWindow(60);
    const { addKey, secret } = await newTeam();
    const keys = [secret, ...(await Promise.all([1, 2, 3, 4].map(() => addKey('full_access')))).map((k) => k.secret)];
    const sixth = (await addKey('full_access')).secret;
    let n = 0;
    const statuses = await burst(3000, 30, () => call('GET', '/usage', { key: keys[n++ % 5]! }));
    expect(statuses.every((s) => s === 200)).toBe(true);
    const refused = await call('GET', '/usage', { key: sixth });
    expect(refused.status).toBe(429);
    expect(refused.json.name).toBe('rate_limit_exceeded');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  }, 180_000);

  it('answers 429 with Retry-After after more than 20 failed authentications a minute from one address', async () => {
    await awaitFreshWindow(10);
    const address = ownLoopbackAddress();
    for (let n = 0; n < 20; n++) {
      expect(
        (await fromAddress(address, 'GET', '/domains', { headers: { authorization: 'Bearer ms_wrong' } })).status,
      ).toBe(401);
    }
    const refused = await fromAddress(address, 'GET', '/domains', { headers: { authorization: 'Bearer ms_wrong' } });
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ statusCode: 429, name: 'rate_limit_exceeded' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  }, 60_000);

  describe('usage', () => {
    it('reports the plan, its limits and today in cloud mode', async () => {
      const { resend, secret, team } = await newTeam({ plan: 'starter' });
      void resend;
      const out = await call('GET', '/usage', { key: secret });
      expect(out.status).toBe(200);
      expect(out.json).toMatchObject({
        object: 'usage',
        cloud: true,
        plan: 'starter',
        limits: { emails_per_day: 1500, domains: 3, contacts: 10000 },
        today: { emails_sent: 0 },
        period: null,
        team: { id: team.id, name: team.name },
      });
      expect(new Date(out.json.today.resets_at).getUTCHours()).toBe(0);
      expect(typeof out.json.app_url).toBe('string');
    });

    it('reports a monthly period on pro and scale plans', async () => {
      const { secret } = await newTeam({ plan: 'pro' });
      const out = await call('GET', '/usage', { key: secret });
      expect(out.json.limits).toMatchObject({ emails_per_month: 50000, domains: 10, contacts: null });
      expect(out.json.limits).not.toHaveProperty('emails_per_day');
      expect(out.json.period).toMatchObject({ emails_sent: 0, included: 50000, overage_enabled: false });
      expect(Date.parse(out.json.period.ends_at)).toBeGreaterThan(Date.parse(out.json.period.starts_at));
    });

    it('reports cloud false with null plan, limits and period when self-hosted', async () => {
      const { team } = await newTeam({ plan: 'pro' });
      const selfHosted = createDeps({ ...testDeps().config, CLOUD: false });
      const usage = await getUsage(selfHosted, team);
      expect(usage).toMatchObject({
        object: 'usage',
        cloud: false,
        plan: null,
        limits: null,
        period: null,
        today: { emails_sent: 0 },
      });
    });
  });

  it('serves the API at the root path for the official SDK', async () => {
    const { secret } = await newTeam();
    const resend = new Resend(secret, { baseUrl: local().baseUrl });
    const out = await resend.domains.list();
    expect(out.data).toEqual({ object: 'list', has_more: false, data: [] });
  });
});
