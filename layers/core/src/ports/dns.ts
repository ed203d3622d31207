import { lookup, resolveCname, resolveTxt } from 'node:dns/promises';

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

/** A DNS name in the form names are compared in: trimmed, lower case, without the root's trailing dot. */
export const canonicalHostName = (name: string): string => name.trim().toLowerCase().replace(/\.$/, '');

/** CNAME lookups (a domain's tracking record is verified with one). */
export interface CnameResolver {
  /** The CNAME targets of `hostname`; empty when it has none or does not resolve. */
  cname(hostname: string): Promise<readonly string[]>;
}

/** The system's DNS for CNAME records. */
export const systemCnames: CnameResolver = {
  cname: async (hostname) => resolveCname(hostname).catch(() => []),
};

/** TXT lookups (a domain claim's proof of DNS control). */
export interface TxtResolver {
  /** The TXT records of `hostname`, each record's strings joined; empty when it has none or does not resolve. */
  txt(hostname: string): Promise<readonly string[]>;
}

/** The system's DNS for TXT records. */
export const systemTxt: TxtResolver = {
  txt: async (hostname) => (await resolveTxt(hostname).catch(() => [])).map((chunks) => chunks.join('')),
};

/** The system resolver (getaddrinfo, as any HTTP client would use). */
export const systemResolver: HostResolver = {
  resolve: async (hostname) =>
    (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({
      address: a.address,
      family: a.family === 6 ? 6 : 4,
    })),
};
