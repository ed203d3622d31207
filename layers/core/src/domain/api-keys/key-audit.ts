import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { putItem } from '../../table/ops.ts';
import { queryPage } from '../../table/query-page.ts';
import { notFound } from '../../errors/api-error.ts';
import { authorize } from '../people/roles.ts';
import type { Actor } from '../people/memberships.ts';
import { createApiKey, listApiKeys, revokeApiKey } from './manage-keys.ts';
import type { ApiKey, Permission } from './api-key.ts';
import { loadDomain } from '../domains/domain.ts';

/** One line of a team's audit list: who did what, when. */
export interface AuditEntry {
  readonly id: string;
  readonly action: 'api_key.created' | 'api_key.revoked';
  readonly actor: string;
  readonly subject: string;
  readonly at: string;
}

const audit = async (deps: Deps, actor: Actor, action: AuditEntry['action'], subject: string): Promise<void> => {
  const id = deps.ids.next();
  await putItem(deps, { ...keys.audit.item(actor.team.id, id), type: 'audit', id, action, actor: actor.user.email, actor_id: actor.user.id, subject, at: new Date(deps.clock.now()).toISOString() });
};

/**
 * Mints a key for the actor's team (spec §5 rule 2: only a person in the dashboard does;
 * keys:write). A domain-scoped key names one of the team's domains (404 otherwise). The secret
 * is returned once; the creation goes in the audit list.
 */
export const mintApiKey = async (deps: Deps, actor: Actor, input: { name: string; permission: Permission; domainId?: string | null }): Promise<{ key: ApiKey; secret: string }> => {
  authorize(actor.role, 'keys:write');
  if (input.domainId) await loadDomain(deps, actor.team.id, input.domainId);
  const made = await createApiKey(deps, { teamId: actor.team.id, name: input.name.trim().slice(0, 100) || 'API key', permission: input.permission, domainId: input.domainId ?? null });
  await audit(deps, actor, 'api_key.created', `${made.key.name} (${made.key.id}, ${made.key.permission}${made.key.domainId ? `, domain ${made.key.domainId}` : ''})`);
  return made;
};

/** Revokes a key of the actor's team (keys:write); the revocation goes in the audit list. */
export const revokeApiKeyAs = async (deps: Deps, actor: Actor, keyId: string): Promise<void> => {
  authorize(actor.role, 'keys:write');
  const key = (await listApiKeys(deps, actor.team.id)).find((k) => k.id === keyId);
  if (!key || !(await revokeApiKey(deps, actor.team.id, keyId))) throw notFound('API key');
  await audit(deps, actor, 'api_key.revoked', `${key.name} (${key.id})`);
};

/** The team's audit list, newest first. */
export const listAudit = async (deps: Deps, teamId: string, limit = 50): Promise<AuditEntry[]> =>
  (await queryPage(deps, { pk: keys.audit.partition(teamId), prefix: '' }, { limit })).items.map((i) => ({ id: i.id, action: i.action, actor: i.actor, subject: i.subject, at: i.at }));
