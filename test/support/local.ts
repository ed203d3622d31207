import { inject } from 'vitest';
import { connect } from 'node:net';
import { request } from 'node:http';
import { Resend } from 'resend';
import { readConfig } from '@mailstack/core/runtime/config';
import { createDeps, type Deps } from '@mailstack/core/runtime/deps';
import { createTeam } from '@mailstack/core/domain/teams/create-team';
import { updateTeam } from '@mailstack/core/domain/teams/update-team';
import { createApiKey } from '@mailstack/core/domain/api-keys/create-api-key';
import { byOperator } from '@mailstack/core/domain/api-keys/key-audit';
import type { PlanName } from '@mailstack/core/domain/teams/plans';
import { LOOKUP_STALENESS_MS } from '@mailstack/core/limits';
import type { Permission } from '@mailstack/core/domain/api-keys/api-key';

/** The running local host of this test run. */
export const local = () => inject('local');

let deps: Deps | undefined;

/**
 * Waits out the local host's lookup staleness (LOOKUP_CACHE_MS): a key, team or domain a test
 * changed through its own dependencies (another process than the host's) is seen by the host
 * after it, as a change made elsewhere reaches every Lambda on AWS within LOOKUP_STALENESS_MS.
 */
export const afterLookupStaleness = (): Promise<void> =>
  new Promise((r) => setTimeout(r, Number(local().env.LOOKUP_CACHE_MS ?? LOOKUP_STALENESS_MS) + 50));

/** Dependencies pointed at the test run's engines, for arranging state the API cannot make (teams, keys). */
export const testDeps = (): Deps => (deps ??= createDeps(readConfig(local().env)));

/** An official SDK client, pointed at the local host the way users point it: RESEND_BASE_URL. */
const sdk = (key: string): Resend => {
  process.env.RESEND_BASE_URL = local().baseUrl;
  return new Resend(key);
};

/** A new team with a key, and an official SDK client for it. */
export const newTeam = async (options: { plan?: PlanName; permission?: Permission; name?: string } = {}) => {
  const d = testDeps();
  const team = await createTeam(d, {
    name: options.name ?? 'Test team',
    ...(options.plan ? { plan: options.plan } : {}),
  });
  const { key, secret } = await createApiKey(
    d,
    { teamId: team.id, name: 'test', permission: options.permission ?? 'full_access' },
    byOperator('test setup'),
  );
  return {
    team,
    key,
    secret,
    resend: sdk(secret),
    /** Another key of the same team. */
    addKey: async (permission: Permission, domainId?: string) => {
      const made = await createApiKey(
        d,
        { teamId: team.id, name: 'extra', permission, domainId: domainId ?? null },
        byOperator('test setup'),
      );
      return { ...made, resend: sdk(made.secret) };
    },
    /** Changes the team's plan, and waits until the host sees it. */
    setPlan: async (plan: PlanName) => {
      await updateTeam(d, team.id, { plan });
      await afterLookupStaleness();
    },
  };
};

/** A raw HTTP call to the local host (for what the SDK cannot send). */
export const call = async (
  method: string,
  path: string,
  options: { key?: string; body?: string | object; headers?: Record<string, string> } = {},
) => {
  const res = await fetch(`${local().baseUrl}${path}`, {
    method,
    headers: {
      ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(options.body !== undefined
      ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }
      : {}),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
};

/** A loopback address of its own (127.x.y.z, x ≥ 1), so per-address windows of other tests stay untouched. */
export const ownLoopbackAddress = (): string =>
  `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${2 + Math.floor(Math.random() * 250)}`;

/**
 * Uploads a body of `bytes` in 1 MiB pieces with a pause between them over a raw socket, as a
 * client on a slow link does, and reads the answer once the upload is done. `writeError` is set
 * when the server cut the connection before the upload finished (EPIPE, reset): a client then
 * never reads the answer.
 */
export const uploadSlowly = (url: string, path: string, bytes: number, headers: Record<string, string> = {}) =>
  new Promise<{ writeError?: string; status?: number; head: string; body: string }>((resolve) => {
    const target = new URL(url);
    const socket = connect(Number(target.port), target.hostname);
    let received = '';
    let writeError: string | undefined;
    const finish = () => {
      const [head = '', body = ''] = received.split('\r\n\r\n');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1];
      resolve({ writeError, status: status ? Number(status) : undefined, head, body });
    };
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      writeError ??= error.code ?? error.message;
    });
    socket.on('close', finish);
    socket.once('connect', async () => {
      const lines = [
        `POST ${path} HTTP/1.1`,
        `host: ${target.host}`,
        'content-type: application/json',
        `content-length: ${bytes}`,
        'connection: close',
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      ];
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
      const piece = Buffer.alloc(1024 * 1024, 'x');
      for (let sent = 0; sent < bytes && !socket.destroyed; sent += piece.length) {
        const part = piece.subarray(0, Math.min(piece.length, bytes - sent));
        await new Promise<void>((done) => socket.write(part, () => done()));
        await new Promise((r) => setTimeout(r, 10));
      }
    });
  });

/**
 * A raw request from `localAddress` (a loopback address of a test's own, see ownLoopbackAddress),
 * so what the service counts per client address is counted apart from every other test's.
 */
export const fromAddress = (
  localAddress: string,
  method: string,
  path: string,
  options: { base?: string; headers?: Record<string, string>; body?: string } = {},
) =>
  new Promise<{ status: number; headers: Record<string, unknown>; json: any }>((resolve, reject) => {
    const url = new URL(path, options.base ?? local().baseUrl);
    const body = options.body;
    const headers = {
      ...options.headers,
      ...(body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}),
    };
    const req = request(
      { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method, localAddress, headers },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          let json: any;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, json });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });

/** Waits until at least `seconds` remain in the current minute, so a fixed-window test does not straddle two windows. */
export const awaitFreshWindow = async (seconds: number): Promise<void> => {
  const left = 60 - ((Date.now() / 1000) % 60);
  if (left < seconds) await new Promise((r) => setTimeout(r, left * 1000 + 200));
};
