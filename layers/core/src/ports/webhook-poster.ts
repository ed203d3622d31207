import type { ResolvedAddress } from './dns.ts';

/** A webhook target that passed the checks: the URL and the one address to connect to. */
export interface CheckedTarget {
  readonly url: URL;
  readonly address: ResolvedAddress;
}

/** What came back from one webhook request. */
export interface PostResult {
  readonly status: number;
  /** The first bytes of the response body, as text. */
  readonly excerpt: string;
  readonly retryAfter: string | undefined;
}

/** Sends webhook requests; injected so tests can see every request the engine makes (or does not). */
export interface WebhookPoster {
  /**
   * POSTs `body` to the checked address of `target` (never resolving its name again), within
   * `timeoutMs` for the whole exchange. Rejects on a timeout or a connection error.
   */
  post(target: CheckedTarget, headers: Record<string, string>, body: string, timeoutMs: number): Promise<PostResult>;
}
