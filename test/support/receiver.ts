import { afterEach, expect } from 'vitest';
import { referenceEventProblems } from './openapi.ts';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface Received {
  readonly headers: IncomingHttpHeaders;
  /** The raw body, as the signature covers it. */
  readonly body: string;
  readonly json: any;
  /** Epoch ms the request arrived (its headers). */
  readonly at: number;
}

/** How the receiver answers a request: status, headers, body, and a delay before answering. */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  delayMs?: number;
  /** Never answer (the caller times out). */
  hang?: boolean;
}

/**
 * A real HTTP webhook receiver on 127.0.0.1 (port 0). It records every request, counts the
 * requests in flight at once, and answers as `reply` says (200 by default).
 */
export const startReceiver = async (reply: (r: Received, n: number) => Reply = () => ({})) => {
  const received: Received[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const waiters: { count: number; resolve: () => void }[] = [];
  const hung = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    const at = Date.now();
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: any;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const r: Received = { headers: req.headers, body, json, at };
      received.push(r);
      for (const w of [...waiters])
        if (received.length >= w.count) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
      const answer = reply(r, received.length);
      const finish = () => {
        inFlight -= 1;
        res.writeHead(answer.status ?? 200, { 'content-type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? 'ok');
      };
      if (answer.hang) {
        hung.add(res);
        res.on('close', () => {
          inFlight -= 1;
        });
        return;
      }
      if (answer.delayMs) setTimeout(finish, answer.delayMs);
      else finish();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    get maxInFlight() {
      return maxInFlight;
    },
    /** Resolves once `count` requests have arrived (fails after `timeoutMs`). */
    waitFor: (count: number, timeoutMs = 20_000) =>
      new Promise<void>((resolve, reject) => {
        if (received.length >= count) return resolve();
        const timer = setTimeout(
          () => reject(new Error(`receiver got ${received.length} of ${count} requests within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      }),
    /** The most requests that arrived within one calendar second. */
    maxPerSecond: () => {
      const buckets = new Map<number, number>();
      for (const r of received) buckets.set(Math.floor(r.at / 1000), (buckets.get(Math.floor(r.at / 1000)) ?? 0) + 1);
      return Math.max(0, ...buckets.values());
    },
    close: () =>
      new Promise<void>((r) => {
        for (const h of hung) h.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
};

/** The three signature headers as the SDK's `verify` takes them. */
export const sdkHeaders = (r: Received) => ({
  id: String(r.headers['webhook-id']),
  timestamp: String(r.headers['webhook-timestamp']),
  signature: String(r.headers['webhook-signature']),
});

/** Receivers for one test file, each closed after its test. */
export const useReceivers = () => {
  const open: Awaited<ReturnType<typeof startReceiver>>[] = [];
  afterEach(async () => {
    const receivers = open.splice(0);
    for (const r of receivers) await r.close();
    // Every payload delivered is held to the reference's schema for its event type.
    const problems = [...new Set(receivers.flatMap((r) => r.received.flatMap((x) => referenceEventProblems(x.json))))];
    expect(problems, 'webhook payloads against the reference schemas').toEqual([]);
  });
  return async (...args: Parameters<typeof startReceiver>) => {
    const r = await startReceiver(...args);
    open.push(r);
    return r;
  };
};
