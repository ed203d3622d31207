import { MailstackError } from '../../errors/mailstack-error.ts';
import ipaddr from 'ipaddr.js';
import type { HostResolver, ResolvedAddress } from '../../ports/dns.ts';
import type { CheckedTarget } from '../../ports/webhook-poster.ts';

/** Which targets a deployment allows (config WEBHOOK_TARGETS). */
export type TargetPolicy = 'public' | 'any';

/** A refused target, with the reason a developer can act on. */
export class TargetRefused extends MailstackError {
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefused';
  }
}

/** Host names that only ever mean this machine or a private network. */
const PRIVATE_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i;

/**
 * Why an address may not be a webhook target, or undefined when it is a public unicast
 * address. IPv4-mapped IPv6 (::ffff:a.b.c.d) is judged as the IPv4 address it carries; every
 * range other than global unicast (private, loopback, link-local and its metadata address
 * 169.254.169.254, unique-local, CGNAT, multicast, reserved, NAT64/6to4/Teredo tunnels) is refused.
 */
const addressRefusal = (address: string): string | undefined => {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  const range = ip.range();
  if (range === 'unicast') return undefined;
  const names: Record<string, string> = {
    private: 'a private address',
    loopback: 'a loopback address',
    linkLocal: 'a link-local address (this includes the cloud metadata service)',
    uniqueLocal: 'a unique-local address',
    carrierGradeNat: 'a carrier-grade NAT address',
    unspecified: 'the unspecified address',
    multicast: 'a multicast address',
    broadcast: 'the broadcast address',
    reserved: 'a reserved address',
  };
  return `${ip.toString()} is ${names[range] ?? `a special-purpose address (${range})`}`;
};

/**
 * Checks a webhook target. Under the `public` policy the URL must be https, carry no
 * credentials, and every address its host resolves to must be public; the caller connects to
 * the returned address (never resolving again), so a DNS answer that changes between the check
 * and the request (rebinding) cannot reach a private network. Under `any` (the local host)
 * http and loopback are allowed.
 */
export const checkTarget = async (
  endpoint: string,
  policy: TargetPolicy,
  dns: HostResolver,
): Promise<CheckedTarget> => {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new TargetRefused(
      `\`endpoint\` must be an absolute URL such as https://example.com/webhooks; got "${endpoint}".`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new TargetRefused(`\`endpoint\` must be an http(s) URL; got the scheme "${url.protocol}".`);
  if (policy === 'public' && url.protocol !== 'https:') throw new TargetRefused('`endpoint` must use https.');
  if (url.username || url.password)
    throw new TargetRefused(
      '`endpoint` must not carry credentials (user:password@); verify requests with the signing secret instead.',
    );
  // The URL parser has already turned decimal (2130706433), octal (0177.0.0.1) and hex forms into dotted IPv4.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: readonly ResolvedAddress[];
  if (ipaddr.isValid(host)) {
    addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }];
  } else {
    if (policy === 'public' && PRIVATE_NAMES.test(host.replace(/\.$/, '')))
      throw new TargetRefused(`\`endpoint\` host ${host} names a local or private network.`);
    try {
      addresses = await dns.resolve(host);
    } catch {
      throw new TargetRefused(`\`endpoint\` host ${host} does not resolve.`);
    }
    if (addresses.length === 0) throw new TargetRefused(`\`endpoint\` host ${host} does not resolve.`);
  }
  if (policy === 'public') {
    for (const a of addresses) {
      const why = addressRefusal(a.address);
      if (why) throw new TargetRefused(`\`endpoint\` host ${host} resolves to ${why}; webhook targets must be public.`);
    }
  }
  return { url, address: addresses[0]! };
};
