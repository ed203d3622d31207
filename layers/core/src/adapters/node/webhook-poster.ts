import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedTarget, PostResult, WebhookPoster } from '../../ports/webhook-poster.ts';

const EXCERPT_BYTES = 1024;

/**
 * POSTs a webhook body to the checked address of a target (the host name is used only for the
 * Host header, TLS SNI and certificate check), within `timeoutMs` for the whole exchange.
 * Rejects on a timeout or a connection error.
 */
const postWebhook = (
  target: CheckedTarget,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<PostResult> =>
  new Promise((resolvePost, reject) => {
    const { url, address } = target;
    // Every lookup the client makes answers with the address that was checked: no second DNS query.
    const lookup = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      if (options?.all) callback(null, [{ address: address.address, family: address.family }]);
      else callback(null, address.address, address.family);
    }) as unknown as LookupFunction;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      url,
      {
        method: 'POST',
        lookup,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'mailstack-webhooks/1',
          ...headers,
        },
        signal: AbortSignal.timeout(timeoutMs),
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < EXCERPT_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => {
          const retryAfter = res.headers['retry-after'];
          resolvePost({
            status: res.statusCode ?? 0,
            excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'),
            retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });

/** The poster of every host: node:http(s) pinned to the checked address. */
export const nodeWebhookPoster: WebhookPoster = { post: postWebhook };
