import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  auth,
  discoverAuthorizationServerMetadata,
  refreshAuthorization,
  UnauthorizedError,
  type OAuthClientProvider,
} from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { launchBrowser, openPage, IN_BROWSER } from '../support/browser.ts';
import { SCOPES } from '@mailstack/core/domain/oauth/scopes';
import { Agent, fetch as undiciFetch } from 'undici';
import { local, ownLoopbackAddress } from '../support/local.ts';
import { dashboardUrl, personIn, seriousViolations } from '../support/dashboard.ts';
import { sendingTeam } from '../support/sending.ts';

const SHOTS = resolve(import.meta.dirname, '..', '..', 'test-results', 'mcp-oauth');

/**
 * An MCP client as an application would write one: the SDK's `OAuthClientProvider` kept in
 * memory, its redirect URI a loopback callback server of its own, and the browser step handed to
 * whoever drives the browser (here headless Chromium).
 */
class MemoryProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  stored?: OAuthTokens;
  verifier = '';
  /** Every authorization URL the SDK asked the person to open. */
  readonly authorizationUrls: URL[] = [];
  constructor(readonly redirect: string) {}
  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'E2E agent',
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: OAuthTokens) {
    this.stored = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrls.push(url);
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'tokens') this.stored = undefined;
    if (scope === 'all' || scope === 'client') this.client = undefined;
  }
}

/** The client's loopback callback: records each code (or error) the browser brings back. */
const callbackServer = async () => {
  const landings: URL[] = [];
  const server: Server = createServer((req, res) => {
    landings.push(new URL(req.url ?? '/', 'http://127.0.0.1'));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><html lang="en"><head><title>Connected</title></head><body><main><h1>You can close this window</h1></main></body></html>',
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, landings, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback` };
};

describe('an MCP client connecting with OAuth, end to end', IN_BROWSER, () => {
  let browser: Browser;
  let page: Page;
  let callback: Awaited<ReturnType<typeof callbackServer>>;
  const violations: string[] = [];
  const mcpUrl = () => new URL(`${local().baseUrl}/mcp`);

  const look = async (name: string) => {
    violations.push(...(await seriousViolations(page)).map((v) => `${name}: ${v}`));
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: resolve(SHOTS, `${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    callback = await callbackServer();
    browser = await launchBrowser();
    page = await openPage(browser);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    callback?.server.close();
  });

  /** A client of the SDK on a transport with the provider. */
  // The client calls from a loopback address of its own: the 401s it is meant to meet are not
  // turned into 429 by other tests' failed authentications from 127.0.0.1 in the same minute.
  const dispatcher = new Agent({ connect: { localAddress: ownLoopbackAddress() } });
  const ownFetch = ((url: string | URL, init?: RequestInit) =>
    undiciFetch(url, { ...(init as object), dispatcher })) as unknown as typeof fetch;
  const transport = (provider: MemoryProvider) =>
    new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider, fetch: ownFetch });
  const connected = async (provider: MemoryProvider) => {
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(transport(provider));
    return client;
  };

  it('discovers, registers, authorizes through sign-in and consent in the browser, calls tools within its scopes, refreshes, and stops when refresh reuse or the dashboard revokes it', async () => {
    const t = await sendingTeam();
    const password = 'a long enough password';
    const { user } = await personIn(t.team.id, 'member', password);
    const provider = new MemoryProvider(callback.url);

    // Discovery from the 401: the challenge names the protected-resource metadata.
    const bare = await fetch(mcpUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${local().baseUrl}/.well-known/oauth-protected-resource", scope="${SCOPES.join(' ')}"`,
    );

    // The SDK's client: 401, discovery, registration, then the browser step.
    const first = transport(provider);
    await expect(new Client({ name: 'e2e', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(provider.client?.client_id).toMatch(/^[0-9a-f-]{36}$/);
    const authorization = provider.authorizationUrls[0]!;
    expect(authorization.origin + authorization.pathname).toBe(`${local().baseUrl}/oauth/authorize`);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('resource')).toBe(mcpUrl().toString());

    // The person: sign-in on the dashboard returns to the consent screen; untick audience:write, approve.
    await page.goto(authorization.toString());
    await page.waitForURL(/\/sign-in\?next=%2Foauth%2Fconsent%2F/);
    await look('sign-in-for-consent');
    const signInForm = page.locator('form[action="/sign-in"]');
    await signInForm.getByLabel('Email').fill(user.email);
    await signInForm.getByLabel('Password').fill(password);
    await signInForm.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/oauth\/consent\//);
    expect(await page.textContent('h1')).toBe('Connect E2E agent?');
    await look('consent');
    await page.locator('input[name="grant_audience:write"]').uncheck();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL((url) => url.toString().startsWith(callback.url));
    const code = callback.landings.at(-1)!.searchParams.get('code')!;
    expect(code).toMatch(/^mcp_ac_/);
    await first.finishAuth(code);
    expect(provider.stored?.refresh_token).toMatch(/^mcp_rt_/);

    // tools/list holds what the member granted: no domain or webhook writes (the role), no audience writes (unticked).
    const client = await connected(provider);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['send_email', 'get_email', 'list_domains', 'list_contacts']));
    for (const absent of ['create_domain', 'create_webhook', 'create_contact']) expect(names).not.toContain(absent);

    // A send through the tool is an email the REST API reads.
    const sent = await client.callTool({
      name: 'send_email',
      arguments: { from: t.from, to: 'delivered@resend.dev', subject: 'Sent by an agent', text: 'hello from MCP' },
    });
    expect(sent.isError).toBeFalsy();
    const id = JSON.parse((sent.content as { type: string; text: string }[])[0]!.text).id as string;
    const read = await t.resend.emails.get(id);
    expect(read.data).toMatchObject({ id, subject: 'Sent by an agent' });

    // Refresh through the SDK: a new access token and a rotated refresh token, which work.
    const before = provider.stored!;
    expect(await auth(provider, { serverUrl: mcpUrl() })).toBe('AUTHORIZED');
    expect(provider.stored!.refresh_token).not.toBe(before.refresh_token);
    expect(provider.stored!.access_token).not.toBe(before.access_token);
    expect((await (await connected(provider)).listTools()).tools.length).toBe(names.length);

    // The old refresh token again: refused, and the whole grant is revoked; the client is asked to authorize again.
    const metadata = await discoverAuthorizationServerMetadata(local().baseUrl);
    await expect(
      refreshAuthorization(local().baseUrl, {
        metadata: metadata!,
        clientInformation: provider.client!,
        refreshToken: before.refresh_token!,
        resource: mcpUrl(),
      }),
    ).rejects.toThrow();
    const asked = provider.authorizationUrls.length;
    await expect(client.listTools()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrls.length).toBe(asked + 1);
    const grants = (await t.resend.oauthGrants.list()).data!.data;
    expect(grants).toEqual([
      expect.objectContaining({
        revoked_reason: 'refresh_token_reused',
        client: { name: 'E2E agent', logo_uri: null },
      }),
    ]);

    // Authorize again (already signed in: straight to consent), then revoke from the dashboard: the next call stops.
    const again = transport(provider);
    await expect(new Client({ name: 'e2e', version: '1.0.0' }).connect(again)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    await page.goto(provider.authorizationUrls.at(-1)!.toString());
    await page.waitForURL(/\/oauth\/consent\//);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL((url) => url.toString().startsWith(callback.url));
    await again.finishAuth(callback.landings.at(-1)!.searchParams.get('code')!);
    const live = await connected(provider);
    expect((await live.listTools()).tools.map((tool) => tool.name)).toContain('create_contact');
    await page.goto(`${dashboardUrl()}/t/${t.team.id}/connections`);
    await look('connections');
    await page.getByRole('button', { name: 'Revoke the connection of E2E agent' }).click();
    await page.waitForURL(/notice=connection-revoked/);
    await look('connections-revoked');
    await expect(live.listTools()).rejects.toBeInstanceOf(UnauthorizedError);
    expect((await t.resend.oauthGrants.list()).data!.data.map((g) => g.revoked_reason)).toEqual([
      'revoked_by_user',
      'refresh_token_reused',
    ]);
    expect(violations).toEqual([]);
  }, 240_000);
});
