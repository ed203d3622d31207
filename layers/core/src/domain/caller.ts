import type { Team } from './teams/team.ts';
import type { ApiKey, Permission } from './api-keys/api-key.ts';

/**
 * Who is calling a use case, as the use cases need it: the team, what the credential may do,
 * and the one sending domain it is restricted to. Each host (HTTP API, SMTP relay, MCP tools,
 * dashboard) authenticates its own way and builds a Caller; the use cases never see a request.
 */
export interface Caller {
  readonly team: Team;
  /** The credential acting (an API key id), for rate windows and logs. */
  readonly keyId: string;
  /** Everything, or sending only (spec §5). */
  readonly scope: Permission;
  /** When set, the caller may send only from this domain id. */
  readonly domainId: string | null;
  /**
   * When set, the only mailboxes whose mail the caller may read (an OAuth grant's mail:* scopes
   * act in the mailboxes the person chose at consent); absent, every mailbox of the team.
   */
  readonly mailboxIds?: readonly string[];
  /**
   * When set, the request-rate count of this call, still settling (a route that reads beside
   * it): a use case awaits it before its first write, so a call over the limit writes nothing.
   */
  readonly admitted?: Promise<void>;
}

/** The caller an API key stands for. */
export const callerOfKey = (key: ApiKey, team: Team): Caller => ({
  team,
  keyId: key.id,
  scope: key.permission,
  domainId: key.domainId,
});

/**
 * The caller a person's OAuth grant stands for on the hosted MCP server: the team they chose on
 * the consent screen, acting with what the grant's scopes and their role allow (checked per
 * tool), never restricted to one sender domain, reading mail only in the mailboxes chosen at
 * consent. The grant id stands where a key id would.
 */
export const callerOfGrant = (grantId: string, team: Team, mailboxIds: readonly string[] = []): Caller => ({
  team,
  keyId: grantId,
  scope: 'full_access',
  domainId: null,
  mailboxIds,
});
