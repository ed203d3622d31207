import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { addToCounters, getItem, putItem } from '../../table/ops.ts';
import { OAUTH_REGISTRATIONS_PER_QUARTER_HOUR } from '../../limits.ts';
import { OAuthError } from './oauth-error.ts';

/**
 * Dynamic client registration (RFC 7591) for MCP clients: public clients only (no secret;
 * PKCE protects the code), redirect URIs https or loopback http only, 10 registrations per
 * quarter hour per client address (spec §8).
 */

export interface OAuthClient {
  readonly clientId: string;
  readonly clientName: string;
  readonly redirectUris: string[];
  readonly logoUri: string | null;
  readonly clientUri: string | null;
  readonly scope: string | null;
  readonly createdAt: number;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Why a redirect URI is refused, or undefined when it is allowed (https, or http to a loopback host; no fragment). */
const redirectUriProblem = (uri: unknown): string | undefined => {
  if (typeof uri !== 'string' || uri.length > 2000) return 'is not a string of at most 2,000 characters';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.hash || uri.includes('#')) return 'has a fragment (RFC 6749 §3.1.2 forbids one)';
  if (url.username || url.password) return 'carries credentials';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return 'is neither https nor http to a loopback host (127.0.0.1, [::1] or localhost)';
};

const fromItem = (i: Record<string, any>): OAuthClient => ({
  clientId: i.client_id,
  clientName: i.client_name,
  redirectUris: i.redirect_uris ?? [],
  logoUri: i.logo_uri ?? null,
  clientUri: i.client_uri ?? null,
  scope: i.scope ?? null,
  createdAt: Number(i.created_at),
});

const optionalString = (metadata: Record<string, unknown>, field: string, max: number): string | null => {
  const value = metadata[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > max)
    throw new OAuthError('invalid_client_metadata', `${field} must be a string of at most ${max} characters.`);
  return value;
};

/** The registration response of RFC 7591 §3.2.1. */
export const registrationResponse = (client: OAuthClient) => ({
  client_id: client.clientId,
  client_id_issued_at: Math.floor(client.createdAt / 1000),
  client_name: client.clientName,
  redirect_uris: client.redirectUris,
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
  ...(client.logoUri ? { logo_uri: client.logoUri } : {}),
  ...(client.clientUri ? { client_uri: client.clientUri } : {}),
  ...(client.scope ? { scope: client.scope } : {}),
});

/**
 * Registers a client from its metadata: valid metadata counts against the address's
 * quarter-hour window (the 11th registration answers 429 with the seconds left); refused
 * metadata writes nothing and is not counted.
 */
export const registerClient = async (deps: Deps, metadata: unknown, sourceIp: string): Promise<OAuthClient> => {
  const now = deps.clock.now();
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    throw new OAuthError(
      'invalid_client_metadata',
      'The registration body must be a JSON object of client metadata (RFC 7591 §2), with redirect_uris.',
    );
  }
  const m = metadata as Record<string, unknown>;
  const uris = m.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > 10) {
    throw new OAuthError(
      'invalid_redirect_uri',
      'redirect_uris must be an array of 1 to 10 redirect URIs (https, or http to 127.0.0.1, [::1] or localhost).',
    );
  }
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem)
      throw new OAuthError(
        'invalid_redirect_uri',
        `The redirect URI ${JSON.stringify(String(uri).slice(0, 200))} ${problem}.`,
      );
  }
  const method = m.token_endpoint_auth_method;
  if (method !== undefined && method !== 'none') {
    throw new OAuthError(
      'invalid_client_metadata',
      `token_endpoint_auth_method ${JSON.stringify(method)} is not supported: clients are public ("none") and prove themselves with PKCE.`,
    );
  }
  for (const [field, allowed] of [
    ['grant_types', ['authorization_code', 'refresh_token']],
    ['response_types', ['code']],
  ] as const) {
    const value = m[field];
    if (
      value !== undefined &&
      (!Array.isArray(value) || value.some((x) => !(allowed as readonly string[]).includes(x)))
    ) {
      throw new OAuthError('invalid_client_metadata', `${field} may only hold ${allowed.join(', ')}.`);
    }
  }
  const logoUri = optionalString(m, 'logo_uri', 2000);
  if (logoUri && !logoUri.startsWith('https://'))
    throw new OAuthError('invalid_client_metadata', 'logo_uri must be an https URL.');
  const clientName = optionalString(m, 'client_name', 200) ?? 'Unnamed MCP client';
  const clientUri = optionalString(m, 'client_uri', 2000);
  const scope = optionalString(m, 'scope', 2000);
  const quarter = Math.floor(now / 900_000);
  const counted = await addToCounters(deps, keys.oauth.registrations(sourceIp, quarter), {
    add: { n: 1 },
    ceilings: { n: OAUTH_REGISTRATIONS_PER_QUARTER_HOUR },
    expiresAt: Math.floor(now / 1000) + 1800,
  });
  if (!counted) {
    const retryAfter = Math.ceil(((quarter + 1) * 900_000 - now) / 1000);
    throw new OAuthError(
      'too_many_requests',
      `At most ${OAUTH_REGISTRATIONS_PER_QUARTER_HOUR} client registrations per 15 minutes from one address; retry after ${retryAfter} seconds, or reuse the client_id you registered.`,
      429,
      retryAfter,
    );
  }
  const client: OAuthClient = {
    clientId: deps.ids.next(),
    clientName,
    redirectUris: [...new Set(uris as string[])],
    logoUri,
    clientUri,
    scope,
    createdAt: now,
  };
  await putItem(
    deps,
    {
      ...keys.oauth.client(client.clientId),
      type: 'oauth_client',
      client_id: client.clientId,
      client_name: client.clientName,
      redirect_uris: client.redirectUris,
      logo_uri: client.logoUri,
      client_uri: client.clientUri,
      scope: client.scope,
      created_at: client.createdAt,
    },
    { exists: false },
  );
  return client;
};

/** A registered client; undefined for an unknown id. */
export const getClient = async (deps: Deps, clientId: string): Promise<OAuthClient | undefined> => {
  if (!/^[0-9a-f-]{36}$/.test(clientId)) return undefined;
  const item = await getItem(deps, keys.oauth.client(clientId));
  return item ? fromItem(item) : undefined;
};
