import { requestGone, redirectWith, nowSeconds } from './authorization.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { putItem, updateItem } from '../../table/ops.ts';
import { OAUTH_CODE_SECONDS, MAX_GRANT_MAILBOXES } from '../../limits.ts';
import { actorIn } from '../people/membership.ts';
import type { User } from '../people/user.ts';
import { roleMayGrant, isScope, isMailScope, type Scope } from './scopes.ts';
import { listMailboxes } from '../mailboxes/list-mailboxes.ts';
import { newSecret, secretHash } from './tokens.ts';

/** The person's answer on the consent screen. */
export type Decision =
  | {
      readonly approve: false;
    }
  | {
      readonly approve: true;
      readonly teamId: string;
      readonly scopes: readonly string[];
      /** The mailboxes the mail:* scopes may act in (the person's own, in the chosen team). */
      readonly mailboxIds?: readonly string[];
    };

/**
 * Records the person's decision (once: a second answer finds the request gone) and returns
 * where to send the browser: the client's redirect URI with a code, or with
 * `error=access_denied`. Only scopes the person's role in the chosen team allows are granted;
 * the mail:* scopes act only in the chosen mailboxes of that team the person owns, and are not
 * granted when none is chosen; a person outside the team gets 404.
 */
export const decideAuthorization = async (deps: Deps, id: string, user: User, decision: Decision): Promise<string> => {
  if (!/^[A-Za-z0-9_-]{43}$/.test(id)) throw requestGone();
  const actor = decision.approve ? await actorIn(deps, user, decision.teamId) : undefined;
  const item = await updateItem(
    deps,
    keys.oauth.request(secretHash(id)),
    { set: { decided_at: nowSeconds(deps) } },
    {
      and: [{ exists: true }, { attr: 'decided_at', absent: true }, { attr: 'expires_at', gt: nowSeconds(deps) }],
    },
  );
  if (!item) throw requestGone();
  const state = item.state ?? undefined;
  if (!decision.approve || !actor)
    return redirectWith(deps, item.redirect_uri, {
      error: 'access_denied',
      error_description: 'The person declined the request.',
      state,
    });
  const requested = new Set<string>(item.scopes);
  const allowed = decision.scopes.filter(
    (s): s is Scope => isScope(s) && requested.has(s) && roleMayGrant(actor.role, s),
  );
  const mailboxIds = allowed.some(isMailScope)
    ? await ownMailboxes(deps, actor.team.id, user.id, decision.mailboxIds ?? [])
    : [];
  const scopes = allowed.filter((s) => !isMailScope(s) || mailboxIds.length > 0);
  if (scopes.length === 0)
    return redirectWith(deps, item.redirect_uri, {
      error: 'access_denied',
      error_description:
        "No scope was granted: none was chosen, or the person's role in the team allows none of those requested.",
      state,
    });
  const code = newSecret('mcp_ac_');
  const expires = nowSeconds(deps) + OAUTH_CODE_SECONDS;
  await putItem(
    deps,
    {
      ...keys.oauth.code(secretHash(code)),
      type: 'oauth_code',
      client_id: item.client_id,
      client_name: item.client_name,
      client_logo_uri: item.client_logo_uri ?? null,
      redirect_uri: item.redirect_uri,
      code_challenge: item.code_challenge,
      resource: item.resource,
      team_id: actor.team.id,
      user_id: user.id,
      scopes: [...new Set(scopes)],
      mailbox_ids: mailboxIds,
      expires_at: expires,
      ttl: expires + 3600,
    },
    { exists: false },
  );
  return redirectWith(deps, item.redirect_uri, { code, state });
};

/**
 * Of the mailbox ids a person chose at consent, those of the team they own (at most
 * MAX_GRANT_MAILBOXES): a person lends an agent only their own mailboxes.
 */
const ownMailboxes = async (
  deps: Deps,
  teamId: string,
  userId: string,
  chosen: readonly string[],
): Promise<string[]> => {
  if (chosen.length === 0) return [];
  const own = new Set((await listMailboxes(deps, teamId)).filter((m) => m.ownerUserId === userId).map((m) => m.id));
  return [...new Set(chosen)].filter((id) => own.has(id)).slice(0, MAX_GRANT_MAILBOXES);
};
