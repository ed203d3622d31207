import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { transact } from '../../table/ops.ts';
import { validationError } from '../../errors/api-error.ts';
import { MAX_KEY_NAME_LENGTH } from '../../limits.ts';
import { authorize } from '../people/roles.ts';
import type { Actor } from '../people/membership.ts';
import { loadDomain } from '../domains/domain.ts';
import {
  apiKeyFromItem,
  hashKey,
  isPermission,
  newKeySecret,
  PERMISSIONS,
  type ApiKey,
  type Permission,
} from './api-key.ts';
import { auditWrite, byPerson, type KeyActor } from './key-audit.ts';

/**
 * Mints a key for a team; the secret is returned once and only its hash is stored. Every caller
 * (the dashboard, the admin CLI, `npm start`) comes through here: a domain-scoped key names one of
 * the team's domains (404 otherwise), and the key is written together with its line in the team's
 * audit list, naming `by`.
 */
export const createApiKey = async (
  deps: Deps,
  input: { teamId: string; name: string; permission: Permission; domainId?: string | null },
  by: KeyActor,
): Promise<{ key: ApiKey; secret: string }> => {
  if (input.domainId) await loadDomain(deps, input.teamId, input.domainId);
  const secret = newKeySecret();
  const hash = hashKey(secret);
  const id = deps.ids.next();
  const item = {
    ...keys.apiKey.item(hash),
    ...keys.apiKey.listing(input.teamId, id),
    type: 'api_key',
    id,
    hash,
    team_id: input.teamId,
    name: input.name,
    permission: input.permission,
    domain_id: input.domainId ?? null,
    revoked: false,
    created_at: new Date(deps.clock.now()).toISOString(),
  };
  const key = apiKeyFromItem(item);
  const subject = `${key.name} (${key.id}, ${key.permission}${key.domainId ? `, domain ${key.domainId}` : ''})`;
  const out = await transact(deps, [
    { put: item, when: { exists: false } },
    auditWrite(deps, input.teamId, by, 'api_key.created', subject),
  ]);
  if (!out.ok) throw new Error('a new key collided with an existing one; create it again');
  return { key, secret };
};

/** Mints a key for the actor's team (spec §5 rule 2: only a person in the dashboard does; keys:write). */
export const mintApiKey = async (
  deps: Deps,
  actor: Actor,
  input: { name: string; permission: string; domainId?: string | null },
): Promise<{ key: ApiKey; secret: string }> => {
  authorize(actor.role, 'keys:write');
  const name = input.name.trim();
  if (name === '' || name.length > MAX_KEY_NAME_LENGTH)
    throw validationError(
      `\`name\`: a key needs a name of 1 to ${MAX_KEY_NAME_LENGTH} characters (it has ${name.length}), to tell it apart in the key list and its audit.`,
    );
  if (!isPermission(input.permission))
    throw validationError(
      `permission: ${JSON.stringify(input.permission)} is not a key permission; use one of ${Object.keys(PERMISSIONS).join(', ')}.`,
    );
  return createApiKey(
    deps,
    {
      teamId: actor.team.id,
      name,
      permission: input.permission,
      domainId: input.domainId ?? null,
    },
    byPerson(actor.user),
  );
};
