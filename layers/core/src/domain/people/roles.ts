import { ApiError } from '../../errors/api-error.ts';

/**
 * The roles of a person in a team and what each may do. One table, read by every host (the
 * dashboard's pages and form endpoints, the admin CLI); an action outside the role is
 * 403 `forbidden` (spec §7).
 *
 * | action            | what it covers                                                        | owner | admin | member |
 * |-------------------|-----------------------------------------------------------------------|-------|-------|--------|
 * | `read`            | every page: overview, emails, audience, domains, keys (never secrets), team | yes | yes | yes |
 * | `audience:write`  | contacts, segments, topics, contact properties, suppressions          | yes   | yes   | yes    |
 * | `domains:write`   | add, verify, change tracking of, delete sending domains               | yes   | yes   | no     |
 * | `keys:write`      | mint and revoke API keys                                              | yes   | yes   | no     |
 * | `mailboxes:write` | create, rename, delete mailboxes (their keys: the mailbox's owner only, whatever the role) | yes | yes | no |
 * | `webhooks:write` | add, edit, rotate, disable, re-enable, delete endpoints; replay deliveries | yes | yes | no |
 * | `templates:write` | create, edit, publish, duplicate, delete templates (every save is live for API sends) | yes | yes | no |
 * | `emails:write`    | cancel or reschedule a scheduled email; create and revoke its shared links | yes | yes | no |
 * | `broadcasts:write`| create, edit, duplicate, delete broadcast drafts                       | yes   | yes   | yes    |
 * | `broadcasts:send` | send a draft now or schedule it; cancel a scheduled or sending broadcast | yes | yes   | no     |
 * | `members:write`   | invite people, change roles, remove members (admins: not owners, and never grant owner) | yes | yes | no |
 * | `team:write`      | rename the team, grant or take the owner role                          | yes   | no    | no     |
 */
export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

const ACTIONS = [
  'read',
  'audience:write',
  'domains:write',
  'keys:write',
  'mailboxes:write',
  'webhooks:write',
  'templates:write',
  'emails:write',
  'broadcasts:write',
  'broadcasts:send',
  'members:write',
  'team:write',
] as const;
export type Action = (typeof ACTIONS)[number];

const ALLOWED: Readonly<Record<Role, ReadonlySet<Action>>> = {
  owner: new Set(ACTIONS),
  admin: new Set<Action>([
    'read',
    'audience:write',
    'domains:write',
    'keys:write',
    'mailboxes:write',
    'webhooks:write',
    'templates:write',
    'emails:write',
    'broadcasts:write',
    'broadcasts:send',
    'members:write',
  ]),
  member: new Set<Action>(['read', 'audience:write', 'broadcasts:write']),
};

/** True when the role allows the action. */
export const allows = (role: Role, action: Action): boolean => ALLOWED[role].has(action);

/** Throws 403 forbidden when the role does not allow the action, naming both. */
export const authorize = (role: Role, action: Action): void => {
  if (!allows(role, action)) {
    throw new ApiError(
      'forbidden',
      `Your role in this team (${role}) does not allow ${action}; ask an owner or admin of the team.`,
    );
  }
};

/** True for a role name. */
export const isRole = (value: unknown): value is Role =>
  typeof value === 'string' && (ROLES as readonly string[]).includes(value);
