import { allows, type Action, type Role } from '../people/roles.ts';

/**
 * The OAuth scopes of the hosted MCP server (spec §5), what each lets an agent do in plain
 * words (the consent screen shows them), and the role action (people/roles.ts) a person needs to
 * grant it: a person can only hand an agent what they could do themselves in the dashboard.
 *
 * | scope             | role action needed |
 * |-------------------|--------------------|
 * | *:read, mail:read, mail:draft, offline_access | `read` (every role) |
 * | emails:send, audience:write, mail:send | `audience:write` (every role) |
 * | mailboxes:write   | `mailboxes:write` (owner, admin) |
 * | broadcasts:write  | `broadcasts:send` (owner, admin: the scope sends and cancels too) |
 * | templates:write   | `templates:write` (owner, admin) |
 * | automations:write | `broadcasts:send` (owner, admin: an automation mails contacts, as a broadcast does) |
 * | domains:write     | `domains:write` (owner, admin) |
 * | webhooks:write    | `webhooks:write` (owner, admin) |
 * | api-keys:write    | `keys:write` (owner, admin) |
 */
export const SCOPES = [
  'emails:send',
  'emails:read',
  'audience:read',
  'audience:write',
  'broadcasts:read',
  'broadcasts:write',
  'domains:read',
  'domains:write',
  'templates:read',
  'templates:write',
  'automations:read',
  'automations:write',
  'webhooks:write',
  'api-keys:write',
  'mailboxes:read',
  'mailboxes:write',
  'mail:read',
  'mail:draft',
  'mail:send',
  'offline_access',
] as const;
export type Scope = (typeof SCOPES)[number];

interface ScopeInfo {
  readonly description: string;
  readonly needs: Action;
}

const SCOPE_INFO: Readonly<Record<Scope, ScopeInfo>> = {
  'emails:send': { description: "Send emails from the team's verified domains", needs: 'audience:write' },
  'emails:read': { description: 'Read the emails the team sent and their delivery status', needs: 'read' },
  'audience:read': {
    description: 'Read contacts, segments, topics, contact properties and suppressions',
    needs: 'read',
  },
  'audience:write': {
    description: 'Add, change and delete contacts, segments, topics, contact properties and suppressions',
    needs: 'audience:write',
  },
  'broadcasts:read': { description: 'Read broadcasts and their recipients', needs: 'read' },
  'broadcasts:write': { description: 'Create, change, send and cancel broadcasts', needs: 'broadcasts:send' },
  'domains:read': { description: "Read the team's sending domains and their DNS records", needs: 'read' },
  'domains:write': { description: 'Add, verify, change and delete sending domains', needs: 'domains:write' },
  'templates:read': { description: 'Read templates', needs: 'read' },
  'templates:write': { description: 'Create, change, publish and delete templates', needs: 'templates:write' },
  'automations:read': { description: 'Read automations, their runs and custom events', needs: 'read' },
  'automations:write': {
    description: 'Create, change, stop and delete automations and custom events, and send events that start them',
    needs: 'broadcasts:send',
  },
  'webhooks:write': {
    description: 'Add, change and delete webhook endpoints (and read them)',
    needs: 'webhooks:write',
  },
  'api-keys:write': { description: "Manage the team's API keys", needs: 'keys:write' },
  'mailboxes:read': { description: "Read the team's mailboxes", needs: 'read' },
  'mailboxes:write': { description: "Create, rename and delete the team's mailboxes", needs: 'mailboxes:write' },
  'mail:read': { description: 'Read mail in the mailboxes you select', needs: 'read' },
  'mail:draft': { description: 'Write drafts in the mailboxes you select', needs: 'read' },
  'mail:send': { description: 'Send mail from the mailboxes you select', needs: 'audience:write' },
  offline_access: {
    description: 'Stay connected: renew access without asking you again, until you revoke it',
    needs: 'read',
  },
};

/** True for the scopes that act only in the mailboxes chosen at consent (spec §5). */
export const isMailScope = (scope: Scope): boolean => scope.startsWith('mail:');

/** True for a scope name. */
export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

/** The plain-language description of a scope. */
export const describeScope = (scope: Scope): string => SCOPE_INFO[scope].description;

/** True when a person of `role` may grant `scope`. */
export const roleMayGrant = (role: Role, scope: Scope): boolean => allows(role, SCOPE_INFO[scope].needs);

/**
 * Parses a space-separated scope parameter (RFC 6749 §3.3): the known scopes in it, and the
 * unknown ones (refused by the caller). No scope at all asks for every scope.
 */
export const parseScopes = (raw: string | undefined): { scopes: Scope[]; unknown: string[] } => {
  const words = [...new Set((raw ?? '').split(' ').filter(Boolean))];
  if (words.length === 0) return { scopes: [...SCOPES], unknown: [] };
  return { scopes: words.filter(isScope), unknown: words.filter((w) => !isScope(w)) };
};
