import ipaddr from 'ipaddr.js';
import { isbot } from 'isbot';

/** One pixel load or link fetch, as the tracking route saw it. */
export interface Fetch {
  readonly kind: 'open' | 'click';
  readonly userAgent: string;
  readonly ipAddress: string;
  /** Epoch ms of the fetch. */
  readonly at: number;
  /** Epoch ms the provider accepted the email; null when unknown. */
  readonly sentAt: number | null;
}

/** Seconds after sending within which a fetch is a machine's (prefetch on delivery). */
export const TOO_SOON_MS = 3_000;

const inRanges = (ip: string, ranges: readonly string[]): boolean => {
  if (!ipaddr.isValid(ip)) return false;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress())
    addr = (addr as ipaddr.IPv6).toIPv4Address();
  return ranges.some((r) => {
    const [net, bits] = ipaddr.parseCIDR(r);
    return net.kind() === addr.kind() && addr.match([net, bits] as any);
  });
};

/** Apple's network (Mail Privacy Protection fetches from it). */
const APPLE = ['17.0.0.0/8'];
/** Exchange Online Protection, where Microsoft Safe Links detonates links. */
const MICROSOFT_EOP = ['40.92.0.0/15', '40.107.0.0/16', '52.100.0.0/14', '104.47.0.0/17'];

/** A named rule: the reason it reports and whether the fetch matches. */
interface Rule {
  readonly reason: string;
  readonly matches: (f: Fetch) => boolean;
}

const ua = (pattern: RegExp) => (f: Fetch) => pattern.test(f.userAgent);
const majorOf = (f: Fetch, browser: string) => Number(new RegExp(`${browser}/(\\d+)`).exec(f.userAgent)?.[1] ?? NaN);

/**
 * The rules in the order they are tried; the first match names the reason. Privacy proxies and
 * scanners come before the generic `isbot` list so the reason says who fetched.
 */
const RULES: readonly Rule[] = [
  {
    reason: 'apple_privacy_proxy',
    matches: (f) => f.kind === 'open' && (f.userAgent.trim() === 'Mozilla/5.0' || inRanges(f.ipAddress, APPLE)),
  },
  { reason: 'gmail_image_proxy', matches: ua(/GoogleImageProxy|ggpht\.com/i) },
  { reason: 'yahoo_image_proxy', matches: ua(/YahooMailProxy/i) },
  {
    reason: 'microsoft_safe_links',
    matches: (f) =>
      /safelinks|Microsoft Office Existence Discovery/i.test(f.userAgent) || inRanges(f.ipAddress, MICROSOFT_EOP),
  },
  { reason: 'proofpoint', matches: ua(/proofpoint/i) },
  { reason: 'mimecast', matches: ua(/mimecast/i) },
  { reason: 'barracuda', matches: ua(/barracuda/i) },
  { reason: 'bot_user_agent', matches: (f) => f.userAgent.trim() !== '' && isbot(f.userAgent) },
  {
    reason: 'implausible_browser',
    matches: (f) =>
      f.userAgent.trim() === '' ||
      /MSIE \d|Trident\//.test(f.userAgent) ||
      majorOf(f, 'Chrome') < 70 ||
      majorOf(f, 'Firefox') < 60 ||
      (/iPhone|Android/.test(f.userAgent) && /Windows NT/.test(f.userAgent)),
  },
  { reason: 'too_soon_after_delivery', matches: (f) => f.sentAt !== null && f.at - f.sentAt < TOO_SOON_MS },
];

/** The machine reason of a fetch, or undefined for a person. */
export const classifyFetch = (f: Fetch): string | undefined => RULES.find((r) => r.matches(f))?.reason;

/** A click is a machine's when another link of the same message was fetched within this window. */
export const ALL_LINKS_WINDOW_MS = 1_000;
