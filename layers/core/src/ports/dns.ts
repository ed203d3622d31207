import { lookup } from 'node:dns/promises';

/** One address a host name resolves to. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Host name resolution; injected so tests can play DNS (rebinding included). */
export interface HostResolver {
  /** Every address of `hostname`; throws when it does not resolve. */
  resolve(hostname: string): Promise<readonly ResolvedAddress[]>;
}

/** The system resolver (getaddrinfo, as any HTTP client would use). */
export const systemResolver: HostResolver = {
  resolve: async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 })),
};
