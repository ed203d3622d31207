import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import type { Write } from '../../table/ops.ts';
import { queryPage } from '../../table/query-page.ts';
import type { User } from '../people/user.ts';

/** One line of a team's audit list: who did what, when. */
export interface AuditEntry {
  readonly id: string;
  readonly action: 'api_key.created' | 'api_key.revoked';
  /** A person's email, or `operator (<how>)` for the operator. */
  readonly actor: string;
  readonly subject: string;
  readonly at: string;
}

/** Who creates or revokes a key: a person (the dashboard), or the operator (admin CLI, `npm start`). */
export type KeyActor =
  | { readonly kind: 'person'; readonly userId: string; readonly email: string }
  | { readonly kind: 'operator'; readonly via: string };

/** A person, as the audit list names them. */
export const byPerson = (user: Pick<User, 'id' | 'email'>): KeyActor => ({
  kind: 'person',
  userId: user.id,
  email: user.email,
});

/** The operator, acting through `via` (`admin CLI`, `npm start`). */
export const byOperator = (via: string): KeyActor => ({ kind: 'operator', via });

/**
 * The write that adds one line to a team's audit list. Callers put it in the same transaction as
 * the change it records, so no key is created or revoked without its line.
 */
export const auditWrite = (
  deps: Deps,
  teamId: string,
  by: KeyActor,
  action: AuditEntry['action'],
  subject: string,
): Write => {
  const id = deps.ids.next();
  return {
    put: {
      ...keys.audit.item(teamId, id),
      type: 'audit',
      id,
      action,
      subject,
      actor: by.kind === 'person' ? by.email : `operator (${by.via})`,
      actor_kind: by.kind,
      actor_id: by.kind === 'person' ? by.userId : null,
      at: new Date(deps.clock.now()).toISOString(),
    },
  };
};

/** The team's audit list, newest first. */
export const listAudit = async (deps: Deps, teamId: string, limit = 50): Promise<AuditEntry[]> =>
  (await queryPage(deps, { pk: keys.audit.partition(teamId), prefix: '' }, { limit })).items.map((i) => ({
    id: i.id,
    action: i.action,
    actor: i.actor,
    subject: i.subject,
    at: i.at,
  }));
