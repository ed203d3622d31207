import { describe, expect, it } from 'vitest';
import type { S3Client } from '@aws-sdk/client-s3';
import { s3ContentStore } from '@mailstack/core/adapters/aws/s3-content-store';
import { presignGet } from '@mailstack/core/adapters/aws/s3-presign';

/** An S3 client whose every call fails as S3 answered, with the credentials given. */
const failingClient = (name: string, status: number, expiration?: Date) =>
  ({
    send: async () => {
      throw Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });
    },
    config: {
      credentials: async () => ({
        accessKeyId: 'AKIDEXAMPLE',
        secretAccessKey: 'secret',
        sessionToken: 'session',
        ...(expiration ? { expiration } : {}),
      }),
      region: async () => 'eu-west-1',
    },
  }) as unknown as S3Client;

describe('the content store on S3', () => {
  it('reads 403 AccessDenied on GetObject as a missing object (S3 to a role without s3:ListBucket), and says so', async () => {
    const warned: string[] = [];
    const store = s3ContentStore(failingClient('AccessDenied', 403), 'bucket', {
      warn: (message, { key }) => warned.push(`${message} ${key}`),
    });
    expect(await store.get('emails/t/e/html')).toBeUndefined();
    expect(warned).toEqual([expect.stringContaining('emails/t/e/html')]);
  });

  it('lets other refusals through: an expired session or a refused write is no missing object', async () => {
    await expect(s3ContentStore(failingClient('ExpiredToken', 400), 'bucket').get('k')).rejects.toThrow('ExpiredToken');
    await expect(
      s3ContentStore(failingClient('AccessDenied', 403), 'bucket').put('k', Buffer.from('x')),
    ).rejects.toThrow('AccessDenied');
  });

  it('presigns a virtual-hosted GET on AWS, with the session token, no longer than the session has left', async () => {
    const now = new Date('2026-01-02T03:04:05Z');
    const url = new URL(
      await presignGet(
        failingClient('unused', 500, new Date(now.getTime() + 120_000)),
        'my-bucket',
        'emails/downloads/a b',
        undefined,
        { seconds: 300, contentDisposition: "attachment; filename*=UTF-8''a%20b" },
        now,
      ),
    );
    expect(url.host).toBe('my-bucket.s3.eu-west-1.amazonaws.com');
    expect(url.pathname).toBe('/emails/downloads/a%20b');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('120');
    expect(url.searchParams.get('X-Amz-Date')).toBe('20260102T030405Z');
    expect(url.searchParams.get('X-Amz-Credential')).toBe('AKIDEXAMPLE/20260102/eu-west-1/s3/aws4_request');
    expect(url.searchParams.get('X-Amz-Security-Token')).toBe('session');
    expect(url.searchParams.get('response-content-disposition')).toBe("attachment; filename*=UTF-8''a%20b");
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  });
});
