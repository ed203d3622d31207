import type { Deps } from '../../runtime/deps.ts';
import type { Team } from '../teams/team.ts';
import { keys } from '../../table/keys.ts';
import { getItem, transact } from '../../table/ops.ts';
import { ApiError, validationError } from '../../errors/api-error.ts';
import { findDomainClaim } from '../../table/domain-claims.ts';
import { limitsFor } from '../teams/plans.ts';
import { countCreation, deliveryRegion, seedDomainCounter } from './create-domain.ts';
import {
  claimItem,
  claimView,
  FINAL,
  iso,
  loadClaimItem,
  newClaim,
  sameSettings,
  type ClaimRequest,
  type ClaimSettings,
} from './domain-claim.ts';
import { advanceClaim } from './advance-domain-claim.ts';

/** The placeholder domain a claim makes: it holds the team's name guard and counts against its cap, nothing more. */
const placeholderItem = (deps: Deps, teamId: string, id: string, name: string, s: ClaimSettings) => ({
  ...keys.domain.item(teamId, id),
  type: 'domain',
  id,
  team_id: teamId,
  name,
  region: s.region,
  status: 'not_started',
  created_at: iso(deps.clock.now()),
  open_tracking: s.openTracking,
  click_tracking: s.clickTracking,
  return_path: s.returnPath,
  tracking_subdomain: s.trackingSubdomain,
  dkim_tokens: [],
  claim_placeholder: true,
});

/**
 * POST /domains/claim: starts a claim of a domain that another team of the deployment holds, or
 * that exists as an SES identity the deployment did not create. It makes a placeholder domain and
 * answers the TXT record that proves control of the domain's DNS. An identical pending claim of
 * the team is answered unchanged (`created: false`, 200); one with other settings is superseded
 * by a new claim (new token) on the same placeholder.
 */
export const createClaim = async (
  deps: Deps,
  team: Team,
  input: ClaimRequest,
): Promise<{ claim: ReturnType<typeof claimView>; created: boolean }> => {
  const name = input.name;
  const settings: ClaimSettings = {
    region: deliveryRegion(deps, input.region),
    returnPath: input.custom_return_path ?? 'send',
    openTracking: input.open_tracking ?? false,
    clickTracking: input.click_tracking ?? false,
    trackingSubdomain: input.tracking_subdomain ?? null,
  };
  const guard = await getItem(deps, keys.domain.nameGuard(team.id, name));
  if (guard) {
    const held = await getItem(deps, keys.domain.item(team.id, guard.domain_id));
    if (!held?.claim_placeholder)
      throw new ApiError(
        'conflict',
        `The domain ${name} is already this team's (${guard.domain_id}): a claim is for a domain another team or account holds.`,
      );
    const before = await loadClaimItem(deps, team.id, held.id);
    const current = before && (await advanceClaim(deps, before, false));
    if (current && !FINAL.includes(current.status) && sameSettings(current, settings))
      return { claim: claimView(current), created: false };
    const next = newClaim(deps, team.id, held.id, name, settings);
    await transact(deps, [
      { put: claimItem(next) },
      {
        update: keys.domain.item(team.id, held.id),
        change: {
          set: {
            region: settings.region,
            return_path: settings.returnPath,
            open_tracking: settings.openTracking,
            click_tracking: settings.clickTracking,
            tracking_subdomain: settings.trackingSubdomain,
          },
        },
        when: { attr: 'claim_placeholder', eq: true },
      },
    ]);
    return { claim: claimView(next), created: true };
  }
  const holder = await findDomainClaim(deps, name);
  if (!holder) {
    const identity = await deps.identities.find({ domain: name, region: settings.region });
    if (!identity || identity.ours)
      throw validationError(
        `No other team or account holds ${name}: there is nothing to claim. Add it with POST /domains.`,
      );
  }
  const limit = limitsFor(deps.config.CLOUD, team.plan)?.domains ?? null;
  await seedDomainCounter(deps, team.id);
  await countCreation(deps, team.id);
  const domainId = deps.ids.next();
  const claim = newClaim(deps, team.id, domainId, name, settings);
  const written = await transact(deps, [
    {
      put: { ...keys.domain.nameGuard(team.id, name), type: 'domain_name', domain_id: domainId },
      when: { exists: false },
    },
    { put: placeholderItem(deps, team.id, domainId, name, settings) },
    {
      update: keys.domain.counter(team.id),
      change: { add: { count: 1 } },
      ...(limit !== null ? { when: { attr: 'count', lt: limit } } : {}),
    },
    { put: claimItem(claim) },
  ]);
  if (!written.ok) {
    if (written.failed === 2)
      throw new ApiError(
        'plan_limit_reached',
        `The ${team.plan} plan allows ${limit} sending domain(s), and a claim's domain counts among them; delete one or upgrade the plan.`,
      );
    throw new ApiError('conflict', `The domain ${name} has already been added to this team.`);
  }
  return { claim: claimView(claim), created: true };
};
