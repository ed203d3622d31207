import { randomBytes } from 'node:crypto';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, putItem, queryAll, updateItem } from '../../table/ops.ts';
import { isApiError, notFound, validationError } from '../../errors/api-error.ts';
import type { Caller } from '../caller.ts';
import { tokenHash } from '../people/one-time-tokens.ts';
import { getEmailOf, getEmailWithBodies } from './get-email.ts';
import { getReceivedMessage } from '../mailboxes/get-received-message.ts';
import { loadMessage, withBodies } from '../mailboxes/message.ts';

/**
 * Shared links of an email (`POST /emails/{id}/share`): a random token, stored by its hash with
 * the team, the email and an expiry, opens a read-only page of a sent or received email on the
 * dashboard's server without a session, until it expires or a member of the team revokes it.
 */

/** The longest a shared link works, and how long it works when `expires_in` is not given (48 hours). */
export const SHARE_MAX_SECONDS = 48 * 3600;

const UNITS: Readonly<Record<string, number>> = {
  s: 1,
  sec: 1,
  secs: 1,
  second: 1,
  seconds: 1,
  m: 60,
  min: 60,
  mins: 60,
  minute: 60,
  minutes: 60,
  h: 3600,
  hr: 3600,
  hrs: 3600,
  hour: 3600,
  hours: 3600,
  d: 86_400,
  day: 86_400,
  days: 86_400,
};

/**
 * The lifetime in seconds of `expires_in`: a number and a unit (`10m`, `2 hours`, `1 day`, `90s`),
 * from 1 second to 48 hours; absent, 48 hours. Anything else is a 422 that says what is allowed.
 */
export const shareLifetimeSeconds = (expiresIn: string | undefined): number => {
  if (expiresIn === undefined) return SHARE_MAX_SECONDS;
  const m = /^\s*(\d{1,9}(?:\.\d{1,6})?)\s*([a-z]+)\s*$/i.exec(expiresIn);
  const unit = m ? UNITS[m[2]!.toLowerCase()] : undefined;
  const seconds = m && unit ? Math.round(Number(m[1]) * unit) : Number.NaN;
  if (!(seconds >= 1 && seconds <= SHARE_MAX_SECONDS))
    throw validationError(
      `expires_in must be a duration from 1 second to 48 hours: a number and a unit (s, m, h or d; or seconds, minutes, hours, days), such as "10m", "2 hours" or "1 day"; got ${JSON.stringify(expiresIn)}.`,
    );
  return seconds;
};

/** The email a link shows: a sent email of the team, or else a received one (404 when neither). */
const sharedKind = async (deps: Deps, caller: Caller, emailId: string): Promise<'sent' | 'received'> => {
  try {
    await getEmailOf(deps, caller, emailId);
    return 'sent';
  } catch (error) {
    if (!isApiError(error) || error.name !== 'not_found') throw error;
  }
  await getReceivedMessage(deps, caller.team.id, emailId, caller.mailboxIds);
  return 'received';
};

/** Where a shared link opens: the dashboard's `/shared/<token>`. */
const shareUrl = (deps: Deps, token: string) => `${deps.config.DASHBOARD_URL.replace(/\/+$/, '')}/shared/${token}`;

/** Creates a shared link of a sent or received email of the caller's team, valid for `expiresIn` (48 hours when absent). */
export const shareEmail = async (
  deps: Deps,
  caller: Caller,
  emailId: string,
  expiresIn: string | undefined,
): Promise<{ object: 'email'; id: string; url: string; expires_at: string }> => {
  const seconds = shareLifetimeSeconds(expiresIn);
  const kind = await sharedKind(deps, caller, emailId);
  await caller.admitted;
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  const expiresAt = new Date(now + seconds * 1000).toISOString();
  const hash = tokenHash(token);
  await putItem(
    deps,
    {
      ...keys.emailShare.item(hash),
      ...keys.emailShare.listing(caller.team.id, emailId, deps.ids.next()),
      type: 'email_share',
      team_id: caller.team.id,
      email_id: emailId,
      kind,
      token_hash: hash,
      created_at: new Date(now).toISOString(),
      expires_at: expiresAt,
      ttl: Math.ceil(now / 1000) + seconds,
    },
    { exists: false },
  );
  return { object: 'email', id: emailId, url: shareUrl(deps, token), expires_at: expiresAt };
};

/** An active shared link of an email, as its page lists it. */
export interface EmailShare {
  readonly id: string;
  readonly createdAt: string;
  readonly expiresAt: string;
}

const active = (deps: Deps, item: Record<string, unknown> | undefined) =>
  !!item && item.revoked_at === undefined && Date.parse(String(item.expires_at)) > deps.clock.now();

/** The links of a team's email that still work, newest first. */
export const listEmailShares = async (deps: Deps, teamId: string, emailId: string): Promise<EmailShare[]> => {
  const items = await queryAll(deps, { ...keys.emailShare.listPartition(teamId, emailId), descending: true });
  return items
    .filter((i) => active(deps, i))
    .map((i) => ({ id: String(i.gsi1sk), createdAt: String(i.created_at), expiresAt: String(i.expires_at) }));
};

/** Revokes one link of a team's email: it answers 404 from then on. Another team's or an unknown link is 404. */
export const revokeEmailShare = async (deps: Deps, teamId: string, emailId: string, shareId: string): Promise<void> => {
  const items = await queryAll(deps, keys.emailShare.listPartition(teamId, emailId));
  const item = items.find((i) => i.gsi1sk === shareId && i.team_id === teamId);
  if (!item) throw notFound('Shared link');
  await updateItem(deps, keys.emailShare.item(String(item.token_hash)), {
    set: { revoked_at: new Date(deps.clock.now()).toISOString() },
  });
};

/** What a shared page shows: the message's envelope and bodies, read-only. */
export interface SharedEmail {
  readonly subject: string;
  readonly from: string;
  readonly to: readonly string[];
  readonly cc: readonly string[];
  readonly date: string;
  readonly html: string | null;
  readonly text: string | null;
  readonly expiresAt: string;
}

const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/** The email a shared link shows, while the link works (unknown, expired, revoked, or its email gone: undefined). */
export const openSharedEmail = async (deps: Deps, token: string): Promise<SharedEmail | undefined> => {
  if (!TOKEN_FORMAT.test(token)) return undefined;
  const share = await getItem(deps, keys.emailShare.item(tokenHash(token)));
  if (!active(deps, share)) return undefined;
  const teamId = String(share!.team_id);
  const emailId = String(share!.email_id);
  const expiresAt = String(share!.expires_at);
  try {
    if (share!.kind === 'sent') {
      const e = await getEmailWithBodies(deps, teamId, emailId);
      return {
        subject: e.subject,
        from: e.from,
        to: e.to,
        cc: e.cc,
        date: e.created_at,
        html: e.html ?? null,
        text: e.text ?? null,
        expiresAt,
      };
    }
    const m = await withBodies(deps, await loadMessage(deps, teamId, emailId));
    return {
      subject: m.subject,
      from: m.from,
      to: m.to,
      cc: m.cc,
      date: m.createdAt,
      html: m.html,
      text: m.text,
      expiresAt,
    };
  } catch (error) {
    if (isApiError(error) && error.name === 'not_found') return undefined;
    throw error;
  }
};
