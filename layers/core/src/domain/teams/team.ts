import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem } from '../../table/ops.ts';
import { cachedItem } from '../../table/item-cache.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { PlanName } from './plans.ts';

/** A team: the tenant every resource belongs to. */
export interface Team {
  readonly id: string;
  readonly name: string;
  readonly plan: PlanName;
  readonly status: 'active' | 'suspended';
  readonly createdAt: string;
  /** Monthly plans: overage billing switch. */
  readonly overageEnabled: boolean;
  /** Set while the team's own bounce or complaint rate holds sending paused. */
  readonly sendingPaused: {
    metric: string;
    rate: number;
    limit: number;
    window_days: number;
    /** When SES paused the team's own tenant (metric ses_tenant): the tenant and its region. */
    tenant?: string;
    region?: string;
  } | null;
  /** Fraud screening blocked the team's payment: its mail waits for review in its first 30 days. */
  readonly paymentBlocked: boolean;
  /** Where notices to the team's owners go (set by the operator CLI; the dashboard later). */
  readonly ownerEmails: readonly string[];
}

/** Item -> Team. */
export const teamFromItem = (item: Record<string, any>): Team => ({
  id: item.id,
  name: item.name,
  plan: item.plan ?? 'free',
  status: item.status ?? 'active',
  createdAt: item.created_at,
  overageEnabled: item.overage_enabled === true,
  sendingPaused: item.sending_paused ?? null,
  paymentBlocked: item.payment_blocked === true,
  ownerEmails: item.owner_emails ?? [],
});

/** A team as the request path reads it: from this process's copy while it is fresh (table/item-cache.ts). */
export const getCachedTeam = async (deps: Deps, teamId: string): Promise<Team | undefined> => {
  const item = await cachedItem(deps, keys.team.item(teamId));
  return item ? teamFromItem(item) : undefined;
};

/** Reads a team by id; undefined when there is none. */
export const getTeam = async (deps: Deps, teamId: string): Promise<Team | undefined> => {
  const item = await getItem(deps, keys.team.item(teamId));
  return item ? teamFromItem(item) : undefined;
};

/**
 * The team as the table holds it now (a strongly consistent read), for the refusals that must hold
 * from the moment they are made anywhere, such as a suspension made with the admin CLI while a
 * process holds a copy; `team` itself when its row is gone.
 */
export const teamNow = async (deps: Deps, team: Team): Promise<Team> => (await getTeam(deps, team.id)) ?? team;

/** Refuses anything that sends for a team the operator suspended (spec §7: its keys still authenticate). */
export const assertNotSuspended = (team: Team): void => {
  if (team.status === 'suspended')
    throw new ApiError(
      'team_suspended',
      'This team is suspended by the operator: its keys still authenticate but nothing is sent. Contact the operator.',
    );
};

/**
 * The team's overview page in the dashboard (its usage, then its deliverability rates), for the
 * links events and notices carry (`dashboard_url`); `section` names a part of the page.
 */
export const teamPageUrl = (deps: Deps, teamId: string, section?: 'deliverability'): string =>
  `${deps.config.DASHBOARD_URL.replace(/\/+$/, '')}/t/${teamId}/${section ? `#${section}` : ''}`;
