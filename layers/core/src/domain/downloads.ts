import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../runtime/deps.ts';

/**
 * Signed, expiring download links (`<base>/downloads/<key id>.<claims>.<mac>`): a received
 * email's raw MIME or one of its attachments, and a sent email's attachments. The link is the
 * credential (what `resend.emails.receiving.forward` fetches without an API key), signed with the
 * link keyring and working for an hour.
 */

/** How long a download link works. */
const DOWNLOAD_LINK_SECONDS = 3600;

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const mac = (secret: string, payload: string) =>
  createHmac('sha256', secret).update(`download:${payload}`).digest('base64url');

/** What a download link names: a received message's raw MIME or attachment, or a sent email's attachment. */
interface DownloadClaims {
  readonly teamId: string;
  /** The received message's id, or the sent email's. */
  readonly messageId: string;
  readonly attachmentId?: string | undefined;
  /** Whose: a message of a mailbox (`received`) or an email the team sent (`sent`). */
  readonly kind: 'received' | 'sent';
  /** Epoch seconds after which the link no longer works. */
  readonly expires: number;
}

/** A signed download link for `claims`, and when it stops working. */
export const downloadLink = async (
  deps: Deps,
  claims: Omit<DownloadClaims, 'expires' | 'kind'> & { readonly kind?: DownloadClaims['kind'] },
): Promise<{ download_url: string; expires_at: string }> => {
  const expires = Math.floor(deps.clock.now() / 1000) + DOWNLOAD_LINK_SECONDS;
  const key = await deps.linkKeys.current();
  const payload = Buffer.from(
    JSON.stringify({
      t: claims.teamId,
      m: claims.messageId,
      a: claims.attachmentId,
      ...(claims.kind === 'sent' ? { k: 's' } : {}),
      x: expires,
    }),
  ).toString('base64url');
  const token = `${key.id}.${payload}.${mac(key.secret, `${key.id}.${payload}`)}`;
  return {
    download_url: `${deps.config.PUBLIC_BASE_URL.replace(/\/$/, '')}/downloads/${token}`,
    expires_at: new Date(expires * 1000).toISOString(),
  };
};

/** The claims of a download token whose signature holds and that has not expired; undefined otherwise. */
export const verifyDownload = async (deps: Deps, token: string): Promise<DownloadClaims | undefined> => {
  const [keyId, payload, given, ...rest] = token.split('.');
  if (rest.length > 0 || !keyId || !payload || !given || !KEY_ID.test(keyId)) return undefined;
  const secret = await deps.linkKeys.byId(keyId);
  if (!secret) return undefined;
  const expected = Buffer.from(mac(secret, `${keyId}.${payload}`));
  const offered = Buffer.from(given);
  if (expected.length !== offered.length || !timingSafeEqual(expected, offered)) return undefined;
  try {
    const c = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (typeof c.t !== 'string' || typeof c.m !== 'string' || typeof c.x !== 'number') return undefined;
    if (c.x * 1000 < deps.clock.now()) return undefined;
    return {
      teamId: c.t,
      messageId: c.m,
      attachmentId: typeof c.a === 'string' ? c.a : undefined,
      kind: c.k === 's' ? 'sent' : 'received',
      expires: c.x,
    };
  } catch {
    return undefined;
  }
};
