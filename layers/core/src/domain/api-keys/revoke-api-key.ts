import { listApiKeys } from './list-api-keys.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { transact } from '../../table/ops.ts';
import { notFound } from '../../errors/api-error.ts';
import { authorize } from '../people/roles.ts';
import type { Actor } from '../people/membership.ts';
import { auditWrite, byPerson, type KeyActor } from './key-audit.ts';

/**
 * Revokes a key by id (false when the team has no such key); the next request with it answers 401
 * invalid_api_key. The revocation is written together with its line in the audit list, naming
 * `by`; revoking a key already revoked changes nothing and adds no line.
 */
export const revokeApiKey = async (deps: Deps, teamId: string, keyId: string, by: KeyActor): Promise<boolean> => {
  const found = (await listApiKeys(deps, teamId)).find((k) => k.id === keyId);
  if (!found) return false;
  await transact(deps, [
    { update: keys.apiKey.item(found.hash), change: { set: { revoked: true } }, when: { attr: 'revoked', eq: false } },
    auditWrite(deps, teamId, by, 'api_key.revoked', `${found.name} (${found.id})`),
  ]);
  return true;
};

/** Revokes a key of the actor's team (keys:write); 404 when the team has no such key. */
export const revokeApiKeyAs = async (deps: Deps, actor: Actor, keyId: string): Promise<void> => {
  authorize(actor.role, 'keys:write');
  if (!(await revokeApiKey(deps, actor.team.id, keyId, byPerson(actor.user)))) throw notFound('API key');
};
