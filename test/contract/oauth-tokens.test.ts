import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newTeam, testDeps } from '../support/local.ts';
import { personIn } from '../support/dashboard.ts';
import type { Role } from '@mailstack/core/domain/people/roles';
import { changeRole } from '@mailstack/core/domain/people/change-role';
import { actorIn } from '@mailstack/core/domain/people/membership';
import { removeMember } from '@mailstack/core/domain/people/remove-member';
import { getUser } from '@mailstack/core/domain/people/user';
import { bearerChallenge, mcpResourceUrl, verifyAccessToken } from '@mailstack/core/domain/oauth/index';
import { createGrant } from '@mailstack/core/domain/oauth/create-grant';
import { getGrant, revokeGrant } from '@mailstack/core/domain/oauth/grant';
import { issueTokens, refreshTokens, secretHash } from '@mailstack/core/domain/oauth/tokens';
import { OAuthError } from '@mailstack/core/domain/oauth/oauth-error';
import type { Scope } from '@mailstack/core/domain/oauth/scopes';
import { keys } from '@mailstack/core/table/keys';
import { getItem } from '@mailstack/core/table/ops';
import type { Deps } from '@mailstack/core/runtime/deps';

/** A grant of a new person (of `role`) in a new team. */
const grantFor = async (deps: Deps, scopes: Scope[] = ['emails:send', 'offline_access'], role: Role = 'owner') => {
  const { team } = await newTeam();
  const { user } = await personIn(team.id, role);
  return createGrant(deps, {
    teamId: team.id,
    userId: user.id,
    clientId: randomUUID(),
    clientName: 'Test agent',
    clientLogoUri: null,
    scopes,
    resource: mcpResourceUrl(deps.config),
  });
};

/** The same dependencies with the clock moved by `seconds`. */
const later = (deps: Deps, seconds: number): Deps => ({ ...deps, clock: { now: () => Date.now() + seconds * 1000 } });

describe('OAuth access tokens of the hosted MCP server', () => {
  it('accept a live token for its resource and name the grant, client, team, person and scopes', async () => {
    const deps = testDeps();
    const grant = await grantFor(deps);
    const tokens = await issueTokens(deps, grant);
    expect(tokens).toMatchObject({
      token_type: 'Bearer',
      expires_in: deps.config.OAUTH_ACCESS_TOKEN_SECONDS,
      scope: 'emails:send offline_access',
    });
    expect(await verifyAccessToken(deps, tokens.access_token, mcpResourceUrl(deps.config))).toEqual({
      grantId: grant.id,
      clientId: grant.clientId,
      teamId: grant.teamId,
      userId: grant.userId,
      scopes: ['emails:send', 'offline_access'],
      granted: ['emails:send', 'offline_access'],
      mailboxIds: [],
    });
  });

  it('store only hashes of the tokens', async () => {
    const deps = testDeps();
    const tokens = await issueTokens(deps, await grantFor(deps));
    const stored = await getItem(deps, keys.oauth.accessToken(secretHash(tokens.access_token)));
    expect(stored).toBeDefined();
    expect(JSON.stringify(stored)).not.toContain(tokens.access_token);
    expect(
      JSON.stringify(await getItem(deps, keys.oauth.refreshToken(secretHash(tokens.refresh_token!)))),
    ).not.toContain(tokens.refresh_token!);
  });

  it('refuse no token, an unknown token, an API key, an expired token and a token for another resource', async () => {
    const deps = testDeps();
    const resource = mcpResourceUrl(deps.config);
    const tokens = await issueTokens(deps, await grantFor(deps));
    expect(await verifyAccessToken(deps, '', resource)).toBeNull();
    expect(await verifyAccessToken(deps, `mcp_at_${'A'.repeat(43)}`, resource)).toBeNull();
    expect(await verifyAccessToken(deps, 'ms_0123456789abcdef0123456789abcdef', resource)).toBeNull();
    expect(
      await verifyAccessToken(later(deps, deps.config.OAUTH_ACCESS_TOKEN_SECONDS + 1), tokens.access_token, resource),
    ).toBeNull();
    expect(
      await verifyAccessToken(later(deps, deps.config.OAUTH_ACCESS_TOKEN_SECONDS - 60), tokens.access_token, resource),
    ).not.toBeNull();
    expect(await verifyAccessToken(deps, tokens.access_token, 'https://elsewhere.example/mcp')).toBeNull();
    expect(await verifyAccessToken(deps, tokens.refresh_token!, resource)).toBeNull();
  });

  it('stop working on the next call once the grant is revoked', async () => {
    const deps = testDeps();
    const grant = await grantFor(deps);
    const tokens = await issueTokens(deps, grant);
    expect(await verifyAccessToken(deps, tokens.access_token, grant.resource)).not.toBeNull();
    await revokeGrant(deps, grant.teamId, grant.id, 'revoked_by_user');
    expect(await verifyAccessToken(deps, tokens.access_token, grant.resource)).toBeNull();
  });

  it('lend only what the person may still do: a narrower role narrows the scopes, leaving the team stops the token', async () => {
    const deps = testDeps();
    const grant = await grantFor(deps, ['emails:read', 'domains:write'], 'admin');
    const tokens = await issueTokens(deps, grant);
    expect((await verifyAccessToken(deps, tokens.access_token, grant.resource))?.scopes).toEqual([
      'emails:read',
      'domains:write',
    ]);
    const { user: owner } = await personIn(grant.teamId, 'owner');
    const ownerActor = await actorIn(deps, owner, grant.teamId);
    await changeRole(deps, ownerActor, grant.userId, 'member');
    // What was granted stays known, so the MCP server refuses the held-back scope for the role (403 forbidden), not with a new consent.
    expect(await verifyAccessToken(deps, tokens.access_token, grant.resource)).toMatchObject({
      scopes: ['emails:read'],
      granted: ['emails:read', 'domains:write'],
    });
    await removeMember(deps, ownerActor, grant.userId);
    expect(await verifyAccessToken(deps, tokens.access_token, grant.resource)).toBeNull();
    expect(await getUser(deps, grant.userId)).toBeDefined();
  });
});

describe('OAuth refresh tokens', () => {
  it('exist only when offline_access was granted', async () => {
    const deps = testDeps();
    const tokens = await issueTokens(deps, await grantFor(deps, ['emails:read']));
    expect(tokens.refresh_token).toBeUndefined();
  });

  it('rotate on use; a rotated token used again revokes the whole grant', async () => {
    const deps = testDeps();
    const grant = await grantFor(deps);
    const first = await issueTokens(deps, grant);
    const second = await refreshTokens(deps, first.refresh_token!, grant.clientId, grant.resource);
    expect(second.refresh_token).toBeDefined();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await verifyAccessToken(deps, second.access_token, grant.resource)).not.toBeNull();
    const reuse = await refreshTokens(deps, first.refresh_token!, grant.clientId, grant.resource).catch((e) => e);
    expect(reuse).toBeInstanceOf(OAuthError);
    expect((reuse as OAuthError).error).toBe('invalid_grant');
    expect((await getGrant(deps, grant.teamId, grant.id))?.revokedReason).toBe('refresh_token_reused');
    expect(await verifyAccessToken(deps, second.access_token, grant.resource)).toBeNull();
    expect(await refreshTokens(deps, second.refresh_token!, grant.clientId, grant.resource).catch((e) => e.error)).toBe(
      'invalid_grant',
    );
  });

  it('ask for the scope granted or less (RFC 6749 §6): a narrower access token, and invalid_scope beyond it', async () => {
    const deps = testDeps();
    const grant = await grantFor(deps, ['emails:read', 'emails:send', 'offline_access']);
    const first = await issueTokens(deps, grant);
    const beyond = await refreshTokens(
      deps,
      first.refresh_token!,
      grant.clientId,
      grant.resource,
      'emails:read domains:write',
    ).catch((e) => e);
    expect(beyond).toBeInstanceOf(OAuthError);
    expect(beyond).toMatchObject({ error: 'invalid_scope' });
    expect(beyond.message).toContain('domains:write');
    // The refused refresh used nothing up: the token still refreshes, here to less.
    const narrow = await refreshTokens(deps, first.refresh_token!, grant.clientId, grant.resource, 'emails:read');
    expect(narrow.scope).toBe('emails:read');
    expect(await verifyAccessToken(deps, narrow.access_token, grant.resource)).toMatchObject({
      scopes: ['emails:read'],
      granted: ['emails:read'],
    });
    // The next refresh, without scope, lends the whole grant again.
    const whole = await refreshTokens(deps, narrow.refresh_token!, grant.clientId, grant.resource);
    expect(whole.scope).toBe('emails:read emails:send offline_access');
  });

  it('are refused for another client or another resource', async () => {
    const deps = testDeps();
    const grant = await grantFor(deps);
    const tokens = await issueTokens(deps, grant);
    expect(await refreshTokens(deps, tokens.refresh_token!, randomUUID(), grant.resource).catch((e) => e.error)).toBe(
      'invalid_grant',
    );
    expect(
      await refreshTokens(deps, tokens.refresh_token!, grant.clientId, 'https://elsewhere.example/mcp').catch(
        (e) => e.error,
      ),
    ).toBe('invalid_target');
    // Neither refusal used the token up.
    expect((await refreshTokens(deps, tokens.refresh_token!, grant.clientId, undefined)).access_token).toMatch(
      /^mcp_at_/,
    );
  });
});

describe('the 401 challenge of the MCP endpoint', () => {
  it('points at the protected-resource metadata, and says invalid_token when a token was refused', () => {
    const config = { PUBLIC_BASE_URL: 'https://api.example.com/' };
    expect(bearerChallenge(config)).toBe(
      'Bearer resource_metadata="https://api.example.com/.well-known/oauth-protected-resource"',
    );
    expect(bearerChallenge(config, { tokenPresented: true })).toMatch(
      /^Bearer resource_metadata="https:\/\/api\.example\.com\/\.well-known\/oauth-protected-resource", error="invalid_token"/,
    );
    expect(mcpResourceUrl(config)).toBe('https://api.example.com/mcp');
  });
});
