import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The content store's bucket on the local host (the stack names its own). */
const LOCAL_CONTENT_BUCKET = 'mailstack-content';

/** The credentials the local engines take (the runtime's local clients sign with them). */
const LOCAL_KEY = 'local';

/** A running embedded S3 server. */
export interface S3Engine {
  readonly endpoint: string;
  readonly bucket: string;
  stop(): Promise<void>;
}

/**
 * Starts the embedded S3-compatible server (s3rver) on 127.0.0.1:`port` with the content bucket,
 * keeping objects under `dataDir` (a temporary directory, removed on stop, when absent). The
 * runtime reaches it with the same S3 adapter as on AWS, through S3_ENDPOINT.
 */
export const startS3Engine = async (port: number, dataDir: string | undefined): Promise<S3Engine> => {
  const S3rver = require('s3rver') as new (
    options: Record<string, unknown>,
  ) => { run(): Promise<{ port: number }>; close(): Promise<void> };
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
