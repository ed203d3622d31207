import type { ResolvedAddress } from '../../ports/dns.ts';

/** A webhook target that passed the checks: the URL and the one address to connect to. */
export interface CheckedTarget {
  readonly url: URL;
  readonly address: ResolvedAddress;
}
