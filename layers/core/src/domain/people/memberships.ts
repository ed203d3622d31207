import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, queryAll, transact, updateItem, type Condition, type Write } from '../../table/ops.ts';
import { ApiError, notFound } from '../../errors/api-error.ts';
import { MAX_TEAM_NAME_LENGTH } from '../../limits.ts';
import { limitsFor } from '../teams/plans.ts';
import { newTeamItem } from '../teams/create-team.ts';
import { getTeam, teamFromItem, type Team } from '../teams/team.ts';
import { authorize, type Role } from './roles.ts';
import type { User } from './users.ts';

/** A person's place in a team. */
export interface Membership {
  readonly teamId: string;
  readonly userId: string;
  readonly email: string;
  readonly name: string;
  readonly role: Role;
  readonly createdAt: string;
}

/** Who acts in a team: the person and their membership (built by the dashboard per request). */
export interface Actor {
  readonly user: User;
  readonly team: Team;
  readonly role: Role;
}

const membershipFromItem = (i: Record<string, any>): Membership => ({
  teamId: i.team_id,
  userId: i.user_id,
  email: i.email,
  name: i.name ?? '',
  role: i.role,
  createdAt: i.created_at,
});

/**
 * The write that counts one more team for a person, guarded by the teams-per-user cap of spec §8
 * (cloud mode; the cap is the plan of the team joined or created). The guard is the condition
 * of the write itself, so two joins at once cannot both pass the last free slot.
 */
const countTeam = (deps: Deps, user: User, plan: Team['plan']): Write => {
  const limit = limitsFor(deps.config.CLOUD, plan)?.teams;
  const when: Condition =
    limit == null
      ? { exists: true }
      : {
          and: [
            { exists: true },
            {
              or: [
                { attr: 'team_count', absent: true },
                { attr: 'team_count', lt: limit },
              ],
            },
          ],
        };
  return { update: keys.user.item(user.id), change: { add: { team_count: 1 } }, when };
};

const teamsCapError = (deps: Deps, plan: Team['plan']): ApiError =>
  new ApiError(
    'plan_limit_reached',
    `A person may belong to ${limitsFor(deps.config.CLOUD, plan)?.teams} team(s) on the ${plan} plan; leave a team or upgrade the plan first.`,
  );

const memberItem = (deps: Deps, teamId: string, user: User, role: Role) => ({
  ...keys.member.item(teamId, user.id),
  ...keys.member.listing(user.id, teamId),
  type: 'member',
  team_id: teamId,
  user_id: user.id,
  email: user.email,
  name: user.name,
  role,
  created_at: new Date(deps.clock.now()).toISOString(),
});

/** Adds a person to a team: 409 conflict when already a member, 403 plan_limit_reached past the cap. */
export const addMember = async (
  deps: Deps,
  team: Team,
  user: User,
  role: Role,
  alsoWrite: readonly Write[] = [],
): Promise<Membership> => {
  const item = memberItem(deps, team.id, user, role);
  const out = await transact(deps, [
    { put: item, when: { exists: false } },
    countTeam(deps, user, team.plan),
    ...alsoWrite,
  ]);
  if (!out.ok) {
    if (out.failed === 0) throw new ApiError('conflict', `${user.email} is already a member of this team.`);
    if (out.failed === 1) throw teamsCapError(deps, team.plan);
    throw new ApiError('conflict', 'This invitation was used or withdrawn meanwhile.');
  }
  return membershipFromItem(item);
};

/** Creates a team with the person as its owner, in one transaction with the cap guard. */
export const createTeamFor = async (deps: Deps, user: User, name: string): Promise<Team> => {
  const teamItem = newTeamItem(deps, { name: name.trim().slice(0, MAX_TEAM_NAME_LENGTH) || 'My team' });
  const out = await transact(deps, [
    { put: teamItem, when: { exists: false } },
    { put: memberItem(deps, teamItem.id, user, 'owner'), when: { exists: false } },
    countTeam(deps, user, teamItem.plan),
  ]);
  if (!out.ok) throw teamsCapError(deps, teamItem.plan);
  return teamFromItem(teamItem);
};

/** The person's membership of a team, or undefined (a stranger). */
export const findMembership = async (deps: Deps, teamId: string, userId: string): Promise<Membership | undefined> => {
  const item = await getItem(deps, keys.member.item(teamId, userId));
  return item ? membershipFromItem(item) : undefined;
};

/** The actor for a person in a team; 404 when the team is not theirs (another team's URL). */
export const actorIn = async (deps: Deps, user: User, teamId: string): Promise<Actor> => {
  const [m, team] = await Promise.all([findMembership(deps, teamId, user.id), getTeam(deps, teamId)]);
  if (!m || !team) throw notFound('Team');
  return { user, team, role: m.role };
};

/** The teams a person belongs to, with their role. */
export const teamsOf = async (deps: Deps, userId: string): Promise<{ teamId: string; role: Role }[]> =>
  (await queryAll(deps, { ...keys.member.teamsPartition(userId) })).map((i) => ({
    teamId: i.team_id,
    role: i.role,
  }));

/** The members of a team. */
export const listMembers = async (deps: Deps, teamId: string): Promise<Membership[]> =>
  (await queryAll(deps, { pk: keys.member.partition(teamId), prefix: keys.member.prefix })).map(membershipFromItem);

/** Admins manage admins and members; only an owner touches an owner or grants owner. */
const authorizeOn = (actor: Actor, target: Membership, newRole?: Role) => {
  authorize(actor.role, 'members:write');
  if (target.role === 'owner' || newRole === 'owner') authorize(actor.role, 'team:write');
};

const loadMember = async (deps: Deps, teamId: string, userId: string): Promise<Membership> => {
  const m = await findMembership(deps, teamId, userId);
  if (!m) throw notFound('Member');
  return m;
};

const keepAnOwner = async (deps: Deps, teamId: string, target: Membership) => {
  if (target.role !== 'owner') return;
  const owners = (await listMembers(deps, teamId)).filter((m) => m.role === 'owner');
  if (owners.length <= 1)
    throw new ApiError('conflict', 'A team keeps at least one owner: make another member owner first.');
};

/** Changes a member's role. */
export const changeRole = async (deps: Deps, actor: Actor, userId: string, role: Role): Promise<Membership> => {
  const target = await loadMember(deps, actor.team.id, userId);
  authorizeOn(actor, target, role);
  if (target.role !== role) await keepAnOwner(deps, actor.team.id, target);
  const out = await updateItem(deps, keys.member.item(actor.team.id, userId), { set: { role } }, { exists: true });
  if (!out) throw notFound('Member');
  return membershipFromItem(out);
};

/** Removes a member (the person's team count goes down in the same transaction). */
export const removeMember = async (deps: Deps, actor: Actor, userId: string): Promise<void> => {
  const target = await loadMember(deps, actor.team.id, userId);
  authorizeOn(actor, target);
  await keepAnOwner(deps, actor.team.id, target);
  await transact(deps, [
    { delete: keys.member.item(actor.team.id, userId), when: { exists: true } },
    { update: keys.user.item(userId), change: { add: { team_count: -1 } }, when: { exists: true } },
  ]);
};

/** The owners' addresses of a team (the people spec §6 notices are emailed to). */
export const ownerAddresses = async (deps: Deps, teamId: string): Promise<string[]> =>
  (await listMembers(deps, teamId)).filter((m) => m.role === 'owner').map((m) => m.email);
