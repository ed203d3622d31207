/**
 * Where message content too large for a table row lives (email bodies and attachments past
 * CONTENT_INLINE_MAX_BYTES): blobs by key. S3 on AWS; locally the same S3 code against an
 * embedded S3-compatible server.
 */
export interface ContentStore {
  put(key: string, body: Buffer): Promise<void>;
  /**
   * The blob, or undefined when no blob has this key (expired or deleted; on S3 also a 403
   * AccessDenied, S3's answer for a missing key to a role without s3:ListBucket).
   */
  get(key: string): Promise<Buffer | undefined>;
  delete(key: string): Promise<void>;
  /**
   * A link that fetches the blob straight from the store for `seconds` (fewer when the store's
   * credentials expire sooner), answered as a download named `filename`: how a file too large
   * for a Lambda's answer is served.
   */
  link(key: string, download: { readonly filename: string; readonly seconds: number }): Promise<string>;
}

/** No content store configured: storing or reading a large body fails with what to set. */
export const missingContentStore = (): ContentStore => {
  const fail = async (): Promise<never> => {
    throw new Error(
      'no content store: set CONTENT_BUCKET (the stack does, for the functions whose manifest entry needs contentStore; the local host starts an embedded S3 server and sets it with S3_ENDPOINT)',
    );
  };
  return { put: fail, get: fail, delete: fail, link: fail };
};
