import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { ContentStore } from '../../ports/content-store.ts';
import type { AdapterCounters } from './counters.ts';
import { presignGet } from './s3-presign.ts';

/**
 * S3's answer to a role without s3:ListBucket for a key that does not exist (and to a refused
 * read). Other 403s (ExpiredToken, SignatureDoesNotMatch, InvalidAccessKeyId) are not it.
 */
const isAccessDenied = (error: unknown): boolean => (error as Error).name === 'AccessDenied';

/** The content store on S3 (on AWS the stack's bucket; locally the embedded S3 server). */
export const s3ContentStore = (
  client: S3Client,
  bucket: string,
  options: {
    readonly counters?: AdapterCounters | undefined;
    readonly warn?: ((message: string, attributes: Record<string, string>) => void) | undefined;
    /** The S3 endpoint when not AWS's (the local engine): links are path-style on it. */
    readonly endpoint?: string | undefined;
  } = {},
): ContentStore => {
  const { counters, warn, endpoint } = options;
  return {
    async put(key, body) {
      if (counters) {
        counters.contentPuts += 1;
        counters.contentPutBytes += body.length;
      }
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentLength: body.length }));
    },
    async get(key) {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        const blob = out.Body ? Buffer.from(await out.Body.transformToByteArray()) : Buffer.alloc(0);
        if (counters) {
          counters.contentGets += 1;
          counters.contentGetBytes += blob.length;
        }
        return blob;
      } catch (error) {
        if ((error as Error).name === 'NoSuchKey') return undefined;
        if (isAccessDenied(error)) {
          // Read as missing, and said so in the log. Why here and not with s3:ListBucket: S3 answers
          // a missing key 403 AccessDenied to a role without ListBucket (GetObject's Permissions),
          // and the stack's roles have none on purpose (it would let every role that reads email
          // content list every team's message keys, in every prefix). Every key read here comes
          // from a row that named it, and each role holds s3:GetObject on the prefixes it reads
          // (the stack's grants, held to each function's calls by the infra tests), so on these
          // keys a 403 means the object is gone (past the bucket's lifecycle, or deleted). Only
          // GetObject is read so: a refused put or delete still fails, and so does a read where the
          // caller needs the bytes (sending, downloads: "missing" is an error there too).
          warn?.('content store: GetObject answered AccessDenied, read as a missing object', { key });
          return undefined;
        }
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    link: (key, download) =>
      presignGet(client, bucket, key, endpoint, {
        seconds: download.seconds,
        contentDisposition: `attachment; filename*=UTF-8''${encodeURIComponent(download.filename)}`,
        contentType: 'application/octet-stream',
      }),
  };
};
