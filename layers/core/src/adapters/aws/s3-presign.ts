import { createHash, createHmac } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';

/** RFC 3986 encoding, as Signature Version 4 wants it (every byte but the unreserved ones). */
const encode = (value: string): string =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const hmac = (key: Buffer | string, data: string): Buffer => createHmac('sha256', key).update(data).digest();

/** What the presigned GET answers with, in place of the object's own headers. */
export interface PresignOptions {
  /** How long the link works, in seconds (shortened to what the signing credentials have left). */
  readonly seconds: number;
  readonly contentDisposition?: string;
  readonly contentType?: string;
}

/**
 * A presigned GET of `key` (Signature Version 4, query-string authentication). Signed with the
 * client's own credentials: on Lambda the function role's session, so the link stops working
 * when that session expires, whatever X-Amz-Expires says; the expiry is shortened to what the
 * credentials have left when they say (AWS_CREDENTIAL_EXPIRATION, or a refreshed session's
 * expiration). Virtual-hosted on AWS; path-style against `endpoint` (the local S3 engine).
 */
export const presignGet = async (
  client: S3Client,
  bucket: string,
  key: string,
  endpoint: string | undefined,
  options: PresignOptions,
  now: Date = new Date(),
): Promise<string> => {
  const credentials = await client.config.credentials();
  const region = await client.config.region();
  const left = credentials.expiration
    ? Math.floor((credentials.expiration.getTime() - now.getTime()) / 1000)
    : options.seconds;
  const seconds = Math.max(1, Math.min(options.seconds, left));
  const path = key.split('/').map(encode).join('/');
  const base = endpoint
    ? new URL(`${endpoint.replace(/\/$/, '')}/${encode(bucket)}/${path}`)
    : new URL(`https://${bucket}.s3.${region}.amazonaws.com/${path}`);
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = stamp.slice(0, 8);
  const scope = `${day}/${region}/s3/aws4_request`;
  const query: Record<string, string> = {
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Credential': `${credentials.accessKeyId}/${scope}`,
    'X-Amz-Date': stamp,
    'X-Amz-Expires': String(seconds),
    'X-Amz-SignedHeaders': 'host',
    ...(credentials.sessionToken ? { 'X-Amz-Security-Token': credentials.sessionToken } : {}),
    ...(options.contentDisposition ? { 'response-content-disposition': options.contentDisposition } : {}),
    ...(options.contentType ? { 'response-content-type': options.contentType } : {}),
  };
  const canonicalQuery = Object.entries(query)
    .map(([k, v]) => [encode(k), encode(v)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalRequest = [
    'GET',
    base.pathname,
    canonicalQuery,
    `host:${base.host}\n`,
    'host',
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const toSign = ['AWS4-HMAC-SHA256', stamp, scope, createHash('sha256').update(canonicalRequest).digest('hex')].join(
    '\n',
  );
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day), region), 's3'), 'aws4_request');
  const signature = createHmac('sha256', signingKey).update(toSign).digest('hex');
  return `${base.origin}${base.pathname}?${canonicalQuery}&X-Amz-Signature=${signature}`;
};
