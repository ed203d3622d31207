import type { CheckedTarget } from '../domain/webhooks/target-types.ts';

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
