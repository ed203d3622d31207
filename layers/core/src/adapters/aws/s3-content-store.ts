import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { ContentStore } from '../../ports/content-store.ts';
import type { AdapterCounters } from './counters.ts';

/** The content store on S3 (on AWS the stack's bucket; locally the embedded S3 server). */
export const s3ContentStore = (client: S3Client, bucket: string, counters?: AdapterCounters): ContentStore => ({
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
      throw error;
    }
  },
  async delete(key) {
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
  },
});
