import type { Deps } from '../../runtime/deps.ts';
import { addToCounters, getItem, seedCounter, transact, type Condition } from '../../table/ops.ts';
import { fixedWindow } from '../windows.ts';
import type { Team } from '../teams/team.ts';
import { limitsFor } from '../teams/plans.ts';
import { keys } from '../../table/keys.ts';
import { ApiError, rateLimited, validationError } from '../../errors/api-error.ts';
import type { CreateDomainRequest } from '../../schemas/domains.ts';
import { domainEventData, domainFromItem, type Domain } from './domain.ts';
import { eventItem, publishEvents } from '../events/record-event.ts';
import { claimDomainWrite, findDomainClaim } from '../../table/domain-claims.ts';
import { DOMAIN_CREATIONS_PER_HOUR } from '../../limits.ts';
import { IdentityNotOursError } from '../../ports/identities.ts';
import { syncInboundRecipients } from './inbound-recipients.ts';

/** The 409 for a name that exists as a provider identity this deployment did not create. */
const identityNotOurs = (name: string) =>
  new ApiError(
    'conflict',
    `The domain ${name} already exists as an SES identity in this service's AWS account, made outside this deployment (the operator's own, another application's or another stack's), so it is not added without proof. Claim it: POST /domains/claim answers a TXT record that proves you control its DNS. Or ask the operator to adopt it for your team: npm run admin -- domains adopt --team <team id> --name ${name}.`,
  );

const claimedElsewhere = (name: string) =>
  new ApiError(
    'conflict',
    `The domain ${name} is already added to another team of this service. A domain sends for one team at a time: remove it from the other team first.`,
  );

/**
 * Creates the team's domain counter from its domains when it has none yet (a team from before
 * the counter), so the conditional write in createDomain starts from the truth.
 */
export const seedDomainCounter = (deps: Deps, teamId: string): Promise<void> =>
  seedCounter(deps, keys.domain.counter(teamId), 'domain_count', {
    pk: keys.domain.partition(teamId),
    prefix: keys.domain.prefix,
  });

/** Counts one domain creation in the team's hourly window; 429 past it. */
export const countCreation = async (deps: Deps, teamId: string): Promise<void> => {
  const w = fixedWindow(deps.clock.now(), 3_600_000);
  const counted = await addToCounters(deps, keys.domain.creationWindow(teamId, w.index), {
    add: { count: 1 },
    ceilings: { count: DOMAIN_CREATIONS_PER_HOUR },
    expiresAt: w.expiresAt,
  });
  if (!counted)
    throw rateLimited(
      `A team may add ${DOMAIN_CREATIONS_PER_HOUR} domains per hour; retry after the Retry-After header's seconds.`,
      w.retryAfterSeconds,
    );
};

/** The delivery region a new domain (or claim) asks for, checked against the deployment's. */
export const deliveryRegion = (deps: Deps, asked: string | undefined): string => {
  const regions = deps.config.DELIVERY_REGIONS;
  const region = asked ?? regions[0] ?? 'us-east-1';
  if (!regions.includes(region)) {
    throw validationError(
      `\`region\` must be one of the delivery regions this deployment serves: ${regions.join(', ')}. Got \`${region}\`.`,
    );
  }
  return region;
};

/** How a domain's provider identity comes to it: made by this deployment, or adopted by the operator. */
type IdentitySource = { readonly kind: 'create' } | { readonly kind: 'adopt'; readonly by: string };

/** Adds a sending domain: checks region and caps, registers the provider identity, stores it. */
export const createDomain = (deps: Deps, team: Team, input: CreateDomainRequest): Promise<Domain> =>
  addDomain(deps, team, input, { kind: 'create' });

/**
 * The operator adopts an identity that exists in the account (made outside this deployment) for
 * a team: the domain is stored with the identity's state and the adoption (who, when) on its row.
 * The service never deletes an identity it did not create.
 */
export const adoptDomain = async (deps: Deps, team: Team, name: string, by: string): Promise<Domain> =>
  addDomain(deps, team, { name: name.toLowerCase() } as CreateDomainRequest, { kind: 'adopt', by });

const addDomain = async (
  deps: Deps,
  team: Team,
  input: CreateDomainRequest,
  source: IdentitySource,
): Promise<Domain> => {
  const region = deliveryRegion(deps, input.region);
  const limit = limitsFor(deps.config.CLOUD, team.plan)?.domains ?? null;
  const capError = () =>
    new ApiError(
      'plan_limit_reached',
      `The ${team.plan} plan allows ${limit} sending domain(s); delete one or upgrade the plan.`,
    );
  await seedDomainCounter(deps, team.id);
  // A quick refusal before the hourly window is spent; the transaction below is what holds the cap.
  if (limit !== null && Number((await getItem(deps, keys.domain.counter(team.id)))?.count ?? 0) >= limit)
    throw capError();
  // Checked before the provider is touched: another team's identity must never be re-created or changed.
  const holder = await findDomainClaim(deps, input.name);
  if (holder && holder.teamId !== team.id) throw claimedElsewhere(input.name);
  if (holder) throw new ApiError('conflict', `The domain ${input.name} has already been added to this team.`);
  await countCreation(deps, team.id);
  const returnPath = input.custom_return_path ?? 'send';
  const identity =
    source.kind === 'adopt'
      ? await deps.identities.find({ domain: input.name, region })
      : await deps.identities
          .create({ domain: input.name, region, mailFromDomain: `${returnPath}.${input.name}` })
          .catch((error: unknown) => {
            if (error instanceof IdentityNotOursError) throw identityNotOurs(input.name);
            throw error;
          });
  if (!identity)
    throw new ApiError(
      'not_found',
      `The account has no SES identity ${input.name} in ${region} to adopt; a team adds a new domain with POST /domains.`,
    );
  const id = deps.ids.next();
  const item = {
    ...keys.domain.item(team.id, id),
    type: 'domain',
    id,
    team_id: team.id,
    name: input.name,
    region,
    status: identity.verified ? 'verified' : 'not_started',
    created_at: new Date(deps.clock.now()).toISOString(),
    open_tracking: input.open_tracking ?? false,
    click_tracking: input.click_tracking ?? false,
    return_path: returnPath,
    tracking_subdomain: input.tracking_subdomain ?? null,
    dkim_tokens: identity.dkimTokens,
    ...(source.kind === 'adopt' ? { adopted_by: source.by, adopted_at: new Date(deps.clock.now()).toISOString() } : {}),
    ...(input.capabilities?.receiving === 'enabled'
      ? { receiving: true, receiving_region: deps.config.AWS_REGION }
      : {}),
  };
  const underCap: Condition | undefined = limit !== null ? { attr: 'count', lt: limit } : undefined;
  const created = eventItem(deps, team.id, 'domain.created', domainEventData(domainFromItem(item), deps.config));
  const written = await transact(deps, [
    {
      put: { ...keys.domain.nameGuard(team.id, input.name), type: 'domain_name', domain_id: id },
      when: { exists: false },
    },
    { put: item },
    claimDomainWrite(input.name, { teamId: team.id, domainId: id }),
    { update: keys.domain.counter(team.id), change: { add: { count: 1 } }, ...(underCap ? { when: underCap } : {}) },
    { put: created.item },
  ]);
  if (!written.ok) {
    if (written.failed === 3) {
      // Past the cap: the name was free (its claim held), so the identity just made is ours alone
      // (remove leaves any identity this stack did not create; an adopted one is never removed).
      if (source.kind === 'create') await deps.identities.remove({ domain: input.name, region }).catch(() => undefined);
      throw capError();
    }
    // Lost a race: the winner holds the name (and its identity); nothing of ours to undo.
    const winner = await findDomainClaim(deps, input.name);
    if (winner && winner.teamId !== team.id) throw claimedElsewhere(input.name);
    throw new ApiError('conflict', `The domain ${input.name} has already been added to this team.`);
  }
  await publishEvents(deps, [created.record]);
  await syncInboundRecipients(deps);
  return domainFromItem(item);
};
