import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, queryAll, type Condition, type Write } from '../../table/ops.ts';
import { ApiError, notFound } from '../../errors/api-error.ts';
import { limitsFor } from '../teams/plans.ts';
import { getTeam, type Team } from '../teams/team.ts';
import { authorize, type Role } from './roles.ts';
import type { User } from './user.ts';

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

export const membershipFromItem = (i: Record<string, any>): Membership => ({
  teamId: i.team_id,
  userId: i.user_id,
  email: i.email,
  name: i.name ?? '',
  role: i.role,
  createdAt: i.created_at,
});

/** How many teams a person may belong to (cloud mode), and the plan that allows it. */
export interface TeamsCap {
  readonly plan: Team['plan'];
  readonly limit: number | null;
}

/**
 * The teams-per-user cap of spec §8 for a person joining or creating a team on `plan`: the most
 * that plan or any plan of the teams they are already in allows (an owner of a Scale team may
 * be in 10 teams, whatever plan a new team starts on). Self-hosted: no cap.
 */
export const teamsCap = async (deps: Deps, user: User, plan: Team['plan']): Promise<TeamsCap> => {
  if (!deps.config.CLOUD) return { plan, limit: null };
  const theirs = await Promise.all((await teamsOf(deps, user.id)).map((m) => getTeam(deps, m.teamId)));
  const plans = [plan, ...theirs.flatMap((t) => (t ? [t.plan] : []))];
  const limit = (p: Team['plan']) => limitsFor(true, p)?.teams ?? Number.POSITIVE_INFINITY;
  const best = plans.reduce((a, b) => (limit(b) > limit(a) ? b : a));
  return { plan: best, limit: limitsFor(true, best)?.teams ?? null };
};

/**
 * The write that counts one more team for a person, guarded by their cap (`teamsCap`). The guard
 * is the condition of the write itself, so two joins at once cannot both pass the last free slot.
 */
export const countTeam = (user: User, cap: TeamsCap): Write => {
  const when: Condition =
    cap.limit == null
      ? { exists: true }
      : {
          and: [
            { exists: true },
            {
              or: [
                { attr: 'team_count', absent: true },
                { attr: 'team_count', lt: cap.limit },
              ],
            },
          ],
        };
  return { update: keys.user.item(user.id), change: { add: { team_count: 1 } }, when };
};

export const teamsCapError = (cap: TeamsCap): ApiError =>
  new ApiError(
    'plan_limit_reached',
    `A person may belong to ${cap.limit} team(s) on the ${cap.plan} plan, the largest of their teams' plans; leave a team or upgrade a plan first.`,
  );

export const memberItem = (deps: Deps, teamId: string, user: User, role: Role) => ({
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

/**
 * The teams a person's dashboard lists (its team switcher) while they act in `actor`'s team: that
 * team always, also when they joined it a moment ago and the index their teams are read through
 * (eventually consistent on AWS) does not show it yet.
 */
export const switcherTeams = async (deps: Deps, actor: Actor): Promise<{ id: string; name: string }[]> => {
  const ids = (await teamsOf(deps, actor.user.id)).map((m) => m.teamId);
  if (!ids.includes(actor.team.id)) ids.push(actor.team.id);
  const teams = await Promise.all(ids.map((id) => (id === actor.team.id ? actor.team : getTeam(deps, id))));
  return teams.flatMap((t) => (t ? [{ id: t.id, name: t.name }] : []));
};

/** The members of a team. */
export const listMembers = async (deps: Deps, teamId: string): Promise<Membership[]> =>
  (await queryAll(deps, { pk: keys.member.partition(teamId), prefix: keys.member.prefix })).map(membershipFromItem);

/** Admins manage admins and members; only an owner touches an owner or grants owner. */
export const authorizeOn = (actor: Actor, target: Membership, newRole?: Role) => {
  authorize(actor.role, 'members:write');
  if (target.role === 'owner' || newRole === 'owner') authorize(actor.role, 'team:write');
};

export const loadMember = async (deps: Deps, teamId: string, userId: string): Promise<Membership> => {
  const m = await findMembership(deps, teamId, userId);
  if (!m) throw notFound('Member');
  return m;
};

export const keepAnOwner = async (deps: Deps, teamId: string, target: Membership) => {
  if (target.role !== 'owner') return;
  const owners = (await listMembers(deps, teamId)).filter((m) => m.role === 'owner');
  if (owners.length <= 1)
    throw new ApiError('conflict', 'A team keeps at least one owner: make another member owner first.');
};

/** The owners' addresses of a team (the people spec §6 notices are emailed to). */
export const ownerAddresses = async (deps: Deps, teamId: string): Promise<string[]> =>
  (await listMembers(deps, teamId)).filter((m) => m.role === 'owner').map((m) => m.email);
