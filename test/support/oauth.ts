import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { expect } from 'vitest';
import { local } from './local.ts';
import type { HttpSession } from './dashboard.ts';

export { ownLoopbackAddress } from './local.ts';
import { ownLoopbackAddress } from './local.ts';

/** A raw HTTP call from a chosen loopback address. */
export const callFrom = (localAddress: string, method: string, path: string, body?: unknown) =>
  new Promise<{ status: number; headers: Record<string, unknown>; json: any; text: string }>((resolve, reject) => {
    const url = new URL(path, local().baseUrl);
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        localAddress,
        headers: text ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } : {},
      },
      (res) => {
        let out = '';
        res.on('data', (c) => (out += c));
        res.on('end', () => {
          let json: any;
          try {
            json = JSON.parse(out);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, json, text: out });
        });
      },
    );
    req.on('error', reject);
    req.end(text);
  });

/** A PKCE pair (RFC 7636): a verifier and its S256 challenge. */
export const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** Registers a public client with a loopback redirect URI from its own address; returns client_id and the URI. */
export const registerClient = async (name = 'Test agent', redirectUri = 'http://127.0.0.1:8976/callback') => {
  const res = await callFrom(ownLoopbackAddress(), 'POST', '/oauth/register', {
    client_name: name,
    redirect_uris: [redirectUri],
    token_endpoint_auth_method: 'none',
  });
  expect(res.status, res.text).toBe(201);
  return { clientId: res.json.client_id as string, redirectUri };
};

/** The authorize URL of a request (S256 and the MCP resource unless told otherwise). */
export const authorizeUrl = (params: Record<string, string | undefined>) => {
  const url = new URL('/oauth/authorize', local().baseUrl);
  const all = {
    response_type: 'code',
    code_challenge_method: 'S256',
    resource: `${local().baseUrl}/mcp`,
    state: 'st-1',
    ...params,
  };
  for (const [k, v] of Object.entries(all)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
};

/** A form POST to the token endpoint. */
export const tokenRequest = async (form: Record<string, string>) => {
  const res = await fetch(`${local().baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, json: (await res.json()) as any };
};

/**
 * The whole browser side over plain HTTP: authorize, the consent screen as the signed-in
 * person, approve (or deny) for a team with the scopes ticked; returns where the browser
 * would land (the client's redirect URI with its parameters).
 */
export const consentOverHttp = async (
  s: HttpSession,
  authorize: string,
  answer: { teamId: string; scopes: string[]; approve?: boolean; mailboxIds?: string[] },
) => {
  const start = await fetch(authorize, { redirect: 'manual' });
  expect(start.status, await start.clone().text()).toBe(302);
  const consent = new URL(start.headers.get('location')!);
  expect(consent.origin).toBe(local().dashboardUrl);
  const page = await s.get(consent.pathname);
  expect(page.status).toBe(200);
  const form: Record<string, string> = {
    _csrf: s.csrf,
    team_id: answer.teamId,
    decision: answer.approve === false ? 'deny' : 'approve',
  };
  for (const scope of answer.scopes) form[`grant_${scope}`] = 'on';
  for (const id of answer.mailboxIds ?? []) form[`mailbox_${id}`] = 'on';
  const done = await s.post(consent.pathname, form);
  expect(done.status).toBe(303);
  return {
    page: await page.text(),
    csp: page.headers.get('content-security-policy') ?? '',
    landing: new URL(done.headers.get('location')!),
  };
};
