import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The content store's bucket on the local host (the stack names its own). */
const LOCAL_CONTENT_BUCKET = 'mailstack-content';

/** The credentials the local engines take (the runtime's local clients sign with them). */
const LOCAL_KEY = 'local';

type KoaMiddleware = (ctx: unknown, next: () => Promise<void>) => Promise<void>;

/** A running embedded S3 server. */
export interface S3Engine {
  readonly endpoint: string;
  readonly bucket: string;
  stop(): Promise<void>;
}

/**
 * Starts the embedded S3-compatible server (s3rver) on 127.0.0.1:`port` with the content bucket,
 * keeping objects under `dataDir` (a temporary directory, removed on stop, when absent). The
 * runtime reaches it with the same S3 adapter as on AWS, through S3_ENDPOINT. A missing key
 * answers 403 AccessDenied, as S3 answers a role without s3:ListBucket.
 */
export const startS3Engine = async (port: number, dataDir: string | undefined): Promise<S3Engine> => {
  const S3rver = require('s3rver') as new (
    options: Record<string, unknown>,
  ) => { run(): Promise<{ port: number }>; close(): Promise<void>; middleware: KoaMiddleware[] };
  const S3Error = require('s3rver/lib/models/error.js') as new (code: string, message: string) => Error;
  // s3rver checks request signatures against its own account's keys: accept the local ones too.
  (
    require('s3rver/lib/models/account.js') as { DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void } }
  ).DUMMY_ACCOUNT.createKeyPair(LOCAL_KEY, LOCAL_KEY);
  const directory = dataDir ?? mkdtempSync(join(tmpdir(), 'mailstack-s3-'));
  mkdirSync(directory, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory,
    vhostBuckets: false,
    configureBuckets: [{ name: LOCAL_CONTENT_BUCKET }],
  });
  // As S3 answers the stack's roles: they hold object actions only, no s3:ListBucket, and S3 then
  // answers a key that does not exist with 403 AccessDenied (GetObject's Permissions), never
  // NoSuchKey. First in the chain, so every operation on a missing key answers it.
  server.middleware.unshift(async (_ctx, next) => {
    try {
      await next();
    } catch (error) {
      if ((error as { code?: string }).code === 'NoSuchKey') throw new S3Error('AccessDenied', 'Access Denied');
      throw error;
    }
  });
  const address = await server.run();
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    bucket: LOCAL_CONTENT_BUCKET,
    stop: async () => {
      await server.close().catch(() => undefined);
      if (!dataDir) rmSync(directory, { recursive: true, force: true });
    },
  };
};
