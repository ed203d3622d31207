import { describe, expect, it } from 'vitest';
import { Resend } from 'resend';
import { call, local, newTeam, testDeps } from '../support/local.ts';
import { personIn, signInOverHttp } from '../support/dashboard.ts';
import {
  authorizeUrl,
  callFrom,
  consentOverHttp,
  ownLoopbackAddress,
  pkce,
  registerClient,
  tokenRequest,
} from '../support/oauth.ts';
import { verifyAccessToken } from '@mailstack/core/domain/oauth/index';
import { SCOPES } from '@mailstack/core/domain/oauth/scopes';
import { createGrant } from '@mailstack/core/domain/oauth/create-grant';
import { issueTokens } from '@mailstack/core/domain/oauth/tokens';

const mcpUrl = () => `${local().baseUrl}/mcp`;

/** A new team, a signed-in person of `role` in it, and a registered client. */
const setup = async (role: 'owner' | 'admin' | 'member' = 'owner') => {
  const t = await newTeam();
  const person = await personIn(t.team.id, role);
  const s = await signInOverHttp(person.link);
  const client = await registerClient();
  return { t, person, s, client };
};

/** Authorizes through the consent screen and trades the code; returns the tokens. */
const connect = async (x: Awaited<ReturnType<typeof setup>>, scopes: string[]) => {
  const { verifier, challenge } = pkce();
  const { landing } = await consentOverHttp(
    x.s,
    authorizeUrl({
      client_id: x.client.clientId,
      redirect_uri: x.client.redirectUri,
      code_challenge: challenge,
      scope: scopes.join(' '),
    }),
    { teamId: x.t.team.id, scopes },
  );
  const code = landing.searchParams.get('code')!;
  expect(code).toBeTruthy();
  const res = await tokenRequest({
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    client_id: x.client.clientId,
    redirect_uri: x.client.redirectUri,
    resource: mcpUrl(),
  });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json as { access_token: string; refresh_token?: string; scope: string; expires_in: number };
};

describe('OAuth discovery', () => {
  it("publishes protected-resource metadata for {base_url}/mcp and the authorization server metadata (S256 only, public clients, the spec's scopes)", async () => {
    const prm = await call('GET', '/.well-known/oauth-protected-resource');
    expect(prm.status).toBe(200);
    expect(prm.json).toMatchObject({
      resource: mcpUrl(),
      authorization_servers: [local().baseUrl],
      scopes_supported: [...SCOPES],
      bearer_methods_supported: ['header'],
    });
    expect((await call('GET', '/.well-known/oauth-protected-resource/mcp')).json).toEqual(prm.json);
    const as = await call('GET', '/.well-known/oauth-authorization-server');
    expect(as.json).toMatchObject({
      issuer: local().baseUrl,
      authorization_endpoint: `${local().baseUrl}/oauth/authorize`,
      token_endpoint: `${local().baseUrl}/oauth/token`,
      registration_endpoint: `${local().baseUrl}/oauth/register`,
      revocation_endpoint: `${local().baseUrl}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['none'],
      scopes_supported: [...SCOPES],
    });
    expect(SCOPES).toEqual([
      'emails:send',
      'emails:read',
      'audience:read',
      'audience:write',
      'broadcasts:read',
      'broadcasts:write',
      'domains:read',
      'domains:write',
      'templates:read',
      'templates:write',
      'automations:read',
      'automations:write',
      'webhooks:write',
      'api-keys:write',
      'mailboxes:read',
      'mailboxes:write',
      'mail:read',
      'mail:draft',
      'mail:send',
      'offline_access',
    ]);
  });
});

describe('OAuth client registration (RFC 7591)', () => {
  it('takes https and loopback redirect URIs and refuses anything else with invalid_redirect_uri', async () => {
    const from = ownLoopbackAddress();
    for (const uri of [
      'https://agent.example.com/cb',
      'http://127.0.0.1:5000/cb',
      'http://[::1]:5000/cb',
      'http://localhost/cb',
    ]) {
      const res = await callFrom(from, 'POST', '/oauth/register', { client_name: 'ok', redirect_uris: [uri] });
      expect(res.status, `${uri}: ${res.text}`).toBe(201);
      expect(res.json).toMatchObject({
        redirect_uris: [uri],
        token_endpoint_auth_method: 'none',
        client_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
    }
    for (const uri of [
      'http://agent.example.com/cb',
      'http://127.0.0.1.evil.example/cb',
      'javascript:alert(1)',
      'custom-app:/cb',
      'https://agent.example.com/cb#frag',
      'not a url',
    ]) {
      const res = await callFrom(from, 'POST', '/oauth/register', { client_name: 'bad', redirect_uris: [uri] });
      expect(res.status, uri).toBe(400);
      expect(res.json, uri).toMatchObject({
        error: 'invalid_redirect_uri',
        statusCode: 400,
        name: 'invalid_parameter',
      });
    }
    const secretClient = await callFrom(from, 'POST', '/oauth/register', {
      redirect_uris: ['https://a.example/cb'],
      token_endpoint_auth_method: 'client_secret_basic',
    });
    expect(secretClient.json).toMatchObject({ error: 'invalid_client_metadata' });
  });

  it('answers the 11th registration from one address within 15 minutes with 429 and Retry-After', async () => {
    const left = 900 - ((Date.now() / 1000) % 900);
    if (left < 20) await new Promise((r) => setTimeout(r, left * 1000 + 200));
    const from = ownLoopbackAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push(
        (
          await callFrom(from, 'POST', '/oauth/register', {
            client_name: `c${i}`,
            redirect_uris: ['https://a.example/cb'],
          })
        ).status,
      );
    expect(statuses).toEqual(Array(10).fill(201));
    const eleventh = await callFrom(from, 'POST', '/oauth/register', {
      client_name: 'c11',
      redirect_uris: ['https://a.example/cb'],
    });
    expect(eleventh.status).toBe(429);
    expect(eleventh.json).toMatchObject({ name: 'rate_limit_exceeded', statusCode: 429 });
    expect(Number(eleventh.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(eleventh.headers['retry-after'])).toBeLessThanOrEqual(900);
    // Another address is not affected.
    expect(
      (await callFrom(ownLoopbackAddress(), 'POST', '/oauth/register', { redirect_uris: ['https://a.example/cb'] }))
        .status,
    ).toBe(201);
  });
});

describe('OAuth authorization (code flow with PKCE S256)', () => {
  it('refuses a redirect URI the client did not register on a page, never redirecting to it', async () => {
    const { clientId } = await registerClient();
    const res = await fetch(
      authorizeUrl({
        client_id: clientId,
        redirect_uri: 'https://attacker.example/cb',
        code_challenge: pkce().challenge,
      }),
      { redirect: 'manual' },
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('is not one this client registered');
    const unknown = await fetch(
      authorizeUrl({
        client_id: '0190aaaa-0000-7000-8000-000000000000',
        redirect_uri: 'http://127.0.0.1:8976/callback',
        code_challenge: pkce().challenge,
      }),
      { redirect: 'manual' },
    );
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get('location')).toBeNull();
  });

  it("refuses PKCE plain, a missing challenge and another resource, back at the client's redirect URI", async () => {
    const { clientId, redirectUri } = await registerClient();
    const cases: [Record<string, string | undefined>, string][] = [
      [{ code_challenge: pkce().verifier, code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge: undefined }, 'invalid_request'],
      [{ code_challenge: pkce().challenge, code_challenge_method: undefined }, 'invalid_request'],
      [{ code_challenge: pkce().challenge, resource: 'https://elsewhere.example/mcp' }, 'invalid_target'],
      [{ code_challenge: pkce().challenge, scope: 'emails:send everything:admin' }, 'invalid_scope'],
      [{ code_challenge: pkce().challenge, response_type: 'token' }, 'unsupported_response_type'],
    ];
    for (const [params, error] of cases) {
      const res = await fetch(authorizeUrl({ client_id: clientId, redirect_uri: redirectUri, ...params }), {
        redirect: 'manual',
      });
      expect(res.status, JSON.stringify(params)).toBe(302);
      const back = new URL(res.headers.get('location')!);
      expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
      expect(back.searchParams.get('error'), JSON.stringify(params)).toBe(error);
      expect(back.searchParams.get('state')).toBe('st-1');
    }
  });

  it('sends a signed-out person to the dashboard sign-in, which returns to the consent screen', async () => {
    const { clientId, redirectUri } = await registerClient();
    const start = await fetch(
      authorizeUrl({ client_id: clientId, redirect_uri: redirectUri, code_challenge: pkce().challenge }),
      { redirect: 'manual' },
    );
    const consent = new URL(start.headers.get('location')!);
    const signedOut = await fetch(consent, { redirect: 'manual' });
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get('location')).toBe(`/sign-in?next=${encodeURIComponent(consent.pathname)}`);
    const page = await (await fetch(`${local().dashboardUrl}${signedOut.headers.get('location')}`)).text();
    expect(page).toContain(`name="next" value="${consent.pathname}"`);
  });

  it('issues a code on approval that works once, with the right verifier, for the registered client and redirect URI', async () => {
    const x = await setup();
    const { verifier, challenge } = pkce();
    const { page, csp, landing } = await consentOverHttp(
      x.s,
      authorizeUrl({
        client_id: x.client.clientId,
        redirect_uri: x.client.redirectUri,
        code_challenge: challenge,
        scope: 'emails:send emails:read',
      }),
      { teamId: x.t.team.id, scopes: ['emails:send', 'emails:read'] },
    );
    expect(page).toContain('Test agent');
    expect(page).toContain('Send emails from the team');
    expect(csp).toContain("form-action 'self' http://127.0.0.1:8976");
    expect(landing.searchParams.get('state')).toBe('st-1');
    expect(landing.searchParams.get('iss')).toBe(local().baseUrl);
    const code = landing.searchParams.get('code')!;
    const form = {
      grant_type: 'authorization_code',
      code,
      client_id: x.client.clientId,
      redirect_uri: x.client.redirectUri,
      resource: mcpUrl(),
    };
    const wrong = await tokenRequest({ ...form, code_verifier: pkce().verifier });
    expect(wrong).toMatchObject({ status: 400, json: { error: 'invalid_grant' } });
    // The wrong attempt used the code up: even the right verifier is refused now.
    expect(await tokenRequest({ ...form, code_verifier: verifier })).toMatchObject({
      status: 400,
      json: { error: 'invalid_grant' },
    });

    const again = await consentOverHttp(
      x.s,
      authorizeUrl({
        client_id: x.client.clientId,
        redirect_uri: x.client.redirectUri,
        code_challenge: challenge,
        scope: 'emails:send emails:read',
      }),
      { teamId: x.t.team.id, scopes: ['emails:send'] },
    );
    const good = { ...form, code: again.landing.searchParams.get('code')!, code_verifier: verifier };
    expect(await tokenRequest({ ...good, client_id: (await registerClient()).clientId })).toMatchObject({
      status: 400,
      json: { error: 'invalid_grant' },
    });
    const third = await consentOverHttp(
      x.s,
      authorizeUrl({
        client_id: x.client.clientId,
        redirect_uri: x.client.redirectUri,
        code_challenge: challenge,
        scope: 'emails:send emails:read',
      }),
      { teamId: x.t.team.id, scopes: ['emails:send'] },
    );
    const ok = await tokenRequest({ ...good, code: third.landing.searchParams.get('code')! });
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);
    expect(ok.json).toMatchObject({ token_type: 'Bearer', scope: 'emails:send', expires_in: 3600 });
    expect(ok.json.refresh_token).toBeUndefined();
    const principal = await verifyAccessToken(testDeps(), ok.json.access_token, mcpUrl());
    expect(principal).toMatchObject({
      teamId: x.t.team.id,
      userId: x.person.user.id,
      clientId: x.client.clientId,
      scopes: ['emails:send'],
    });
    // The code again: refused, and the grant it made is revoked.
    expect(await tokenRequest({ ...good, code: third.landing.searchParams.get('code')! })).toMatchObject({
      status: 400,
      json: { error: 'invalid_grant' },
    });
    expect(await verifyAccessToken(testDeps(), ok.json.access_token, mcpUrl())).toBeNull();
  });

  it('redirects a denial with access_denied, and grants a member only the scopes a member may use', async () => {
    const x = await setup('member');
    const { challenge } = pkce();
    const denied = await consentOverHttp(
      x.s,
      authorizeUrl({ client_id: x.client.clientId, redirect_uri: x.client.redirectUri, code_challenge: challenge }),
      { teamId: x.t.team.id, scopes: [], approve: false },
    );
    expect(denied.landing.searchParams.get('error')).toBe('access_denied');
    expect(denied.landing.searchParams.get('state')).toBe('st-1');
    expect(denied.page).toContain('(your role does not allow it: it will not be granted)');
    const tokens = await connect(x, [
      'emails:send',
      'domains:write',
      'webhooks:write',
      'api-keys:write',
      'templates:write',
      'broadcasts:write',
      'audience:read',
    ]);
    expect(tokens.scope).toBe('emails:send audience:read');
  });
});

describe('OAuth tokens against the APIs', () => {
  it('are refused on the REST API with 401 invalid_api_key', async () => {
    const x = await setup();
    const tokens = await connect(x, ['emails:read', 'domains:read', 'offline_access']);
    const resend = new Resend(tokens.access_token);
    const listed = await resend.domains.list();
    expect(listed.error).toMatchObject({ statusCode: 401, name: 'invalid_api_key' });
    const refresh = await call('GET', '/emails', { key: tokens.refresh_token! });
    expect(refresh.status).toBe(401);
    expect(refresh.json.name).toBe('invalid_api_key');
  });

  it('rotate the refresh token on use; reusing an old one revokes the grant, which the SDK lists as revoked', async () => {
    const x = await setup();
    const first = await connect(x, ['emails:send', 'offline_access']);
    expect(first.refresh_token).toMatch(/^mcp_rt_/);
    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token!,
      client_id: x.client.clientId,
      resource: mcpUrl(),
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.json.refresh_token).not.toBe(first.refresh_token);
    expect(await verifyAccessToken(testDeps(), refreshed.json.access_token, mcpUrl())).not.toBeNull();
    const reuse = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token!,
      client_id: x.client.clientId,
    });
    expect(reuse).toMatchObject({ status: 400, json: { error: 'invalid_grant' } });
    expect(await verifyAccessToken(testDeps(), refreshed.json.access_token, mcpUrl())).toBeNull();
    expect(
      (
        await tokenRequest({
          grant_type: 'refresh_token',
          refresh_token: refreshed.json.refresh_token,
          client_id: x.client.clientId,
        })
      ).json.error,
    ).toBe('invalid_grant');
    const { data } = await x.t.resend.oauthGrants.list();
    expect(data!.data).toEqual([
      expect.objectContaining({
        client_id: x.client.clientId,
        scopes: ['emails:send', 'offline_access'],
        revoked_reason: 'refresh_token_reused',
        revoked_at: expect.any(String),
        client: { name: 'Test agent', logo_uri: null },
      }),
    ]);
  });

  it("stop on the next call when the grant is revoked through the SDK, and only the team's grants are listed or revocable", async () => {
    const x = await setup();
    const tokens = await connect(x, ['emails:read']);
    const other = await newTeam();
    const { data: theirs } = await other.resend.oauthGrants.list();
    expect(theirs).toEqual({ object: 'list', has_more: false, data: [] });
    const [grant] = (await x.t.resend.oauthGrants.list()).data!.data;
    expect(grant).toMatchObject({ revoked_at: null, revoked_reason: null, scopes: ['emails:read'] });
    expect((await other.resend.oauthGrants.revoke(grant!.id)).error).toMatchObject({
      statusCode: 404,
      name: 'not_found',
    });
    expect(await verifyAccessToken(testDeps(), tokens.access_token, mcpUrl())).not.toBeNull();
    const revoked = await x.t.resend.oauthGrants.revoke(grant!.id);
    expect(revoked.data).toEqual({
      object: 'oauth_grant',
      id: grant!.id,
      revoked_at: expect.any(String),
      revoked_reason: 'revoked_by_api',
    });
    expect(await verifyAccessToken(testDeps(), tokens.access_token, mcpUrl())).toBeNull();
  });

  it('stop on the next call when a person revokes the connection on the dashboard', async () => {
    const x = await setup();
    const tokens = await connect(x, ['emails:read']);
    const [grant] = (await x.t.resend.oauthGrants.list()).data!.data;
    const page = await (await x.s.get(`/t/${x.t.team.id}/connections`)).text();
    expect(page).toContain('Test agent');
    expect(page).toContain(`/t/${x.t.team.id}/connections/${grant!.id}/revoke`);
    const res = await x.s.post(`/t/${x.t.team.id}/connections/${grant!.id}/revoke`, { _csrf: x.s.csrf });
    expect(res.status).toBe(303);
    expect(await verifyAccessToken(testDeps(), tokens.access_token, mcpUrl())).toBeNull();
    expect((await x.t.resend.oauthGrants.list()).data!.data[0]).toMatchObject({ revoked_reason: 'revoked_by_user' });
  });
});

describe("the MCP endpoint's refusals, through verifyAccessToken", () => {
  const listTools = (token?: string) =>
    fetch(mcpUrl(), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
  const challenge = () => `Bearer resource_metadata="${local().baseUrl}/.well-known/oauth-protected-resource"`;

  it('answer no token, an expired token, a token for another resource and an API key with 401 and the challenge; a live token is served', async () => {
    const x = await setup();
    const deps = testDeps();
    const grantOf = (resource: string) =>
      createGrant(deps, {
        teamId: x.t.team.id,
        userId: x.person.user.id,
        clientId: x.client.clientId,
        clientName: 'Test agent',
        clientLogoUri: null,
        scopes: ['emails:read'],
        resource,
      });
    const live = await issueTokens(deps, await grantOf(mcpUrl()));
    const expired = await issueTokens(
      { ...deps, clock: { now: () => Date.now() - (deps.config.OAUTH_ACCESS_TOKEN_SECONDS + 5) * 1000 } },
      await grantOf(mcpUrl()),
    );
    const elsewhere = await issueTokens(deps, await grantOf('https://elsewhere.example/mcp'));

    const none = await listTools();
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe(`${challenge()}, scope="${SCOPES.join(' ')}"`);
    for (const token of [expired.access_token, elsewhere.access_token, x.t.secret]) {
      const res = await listTools(token);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(
        new RegExp(`^${challenge().replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}, error="invalid_token"`),
      );
    }
    const ok = await listTools(live.access_token);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('list_emails');
  });
});
