import type { Deps } from '../../runtime/deps.ts';
import { ApiError, notFound, validationError } from '../../errors/api-error.ts';
import { assertNotSuspended, teamNow, type Team } from '../teams/team.ts';
import { PLANS } from '../teams/plans.ts';
import { assertSendingAllowed, regionRecovered } from '../deliverability/guardrail.ts';
import { findDomainByName } from '../domains/domain.ts';
import { parseMailbox } from '../emails/rules/addresses.ts';
import { parseScheduledAt } from '../emails/schedule-time.ts';
import { assertNotDisguised } from '../emails/rules/lookalikes.ts';
import { monthLeft, sentToday } from '../quotas/reserve-quota.ts';
import { propertyTypes } from '../contacts/contact-property.ts';
import { missingVariables } from '../templates/render.ts';
import { missingVariableError } from '../templates/template-view.ts';
import {
  activePauses,
  countSegmentMembers,
  holdLane,
  putBroadcast,
  readBroadcast,
  regionLanes,
  setPause,
  type BroadcastPause,
} from '../../table/broadcasts.ts';
import { BroadcastTooLarge, planBroadcast, regionBusyUntil, type PlanWarning } from './plan.ts';
import { notDraftAnyMore } from './broadcast-view.ts';
import { knownPlaceholder } from './personalize.ts';
import { kickFanOut } from './fan-out.ts';

const pausedError = (p: BroadcastPause) =>
  new ApiError(
    'broadcasts_paused',
    p.scope === 'team'
      ? `Broadcast sending is paused for this team by the operator${p.reason ? ` (${p.reason})` : ''}${p.until ? ` until ${new Date(p.until).toISOString()}` : ''}. Transactional email is unaffected; the pause clears on its own${p.until ? ' then' : ' when the operator lifts it'}.`
      : `Broadcast sending is paused in ${p.target} while the platform's sending rate there recovers${p.until ? ` (until ${new Date(p.until).toISOString()})` : p.untilRecovered ? ' (until its bounce and complaint rates are back under the risk lines)' : ''}. Transactional email is unaffected; the pause clears on its own, retry the send later.`,
  );

/** What POST /broadcasts/{id}/send answers. */
interface SendAnswer {
  readonly id: string;
  readonly finishes_at: string | null;
  readonly estimated: true;
  readonly warning?: PlanWarning;
}

/**
 * Sends (or schedules) a draft: checks the team may send and broadcasts are not paused, plans the
 * pacing (refusing past 24 days of capacity), records the plan, takes the region's broadcast lane
 * and starts the fan-out. Answers the planned finish and any warning.
 */
export const sendBroadcast = async (
  deps: Deps,
  team: Team,
  id: string,
  scheduledAt: string | null | undefined,
): Promise<SendAnswer> => {
  // As the team is now: a suspension made anywhere holds from the next send.
  const current = await teamNow(deps, team);
  assertNotSuspended(current);
  const b = await readBroadcast(deps, team.id, id);
  if (!b) throw notFound(`Broadcast ${id}`);
  if (b.status !== 'draft')
    throw new ApiError('invalid_parameter', `${notDraftAnyMore(b)}; duplicate it to send again.`);
  await assertSendingAllowed(deps, current);
  const now = deps.clock.now();
  const from = parseMailbox(b.from, 'from');
  if (from.name) assertNotDisguised(from.name, 'from');
  assertNotDisguised(b.subject, 'subject');
  const domainName = from.address.split('@')[1]!.toLowerCase();
  const domain = await findDomainByName(deps, team.id, domainName);
  if (domain?.status !== 'verified')
    throw validationError(
      `The ${domainName} domain is not verified. Add it with POST /domains and verify it before sending a broadcast from it.`,
    );
  const [pause, declared, audience, lanes, usedToday, monthly] = await Promise.all([
    broadcastPauseFor(deps, team.id, domain.region),
    propertyTypes(deps, team.id),
    countSegmentMembers(deps, team.id, b.segment_id),
    regionLanes(deps, domain.region),
    sentToday(deps, team.id),
    monthLeft(deps, team),
  ]);
  if (pause) throw pausedError(pause);
  const unknown = missingVariables(
    (name) => (knownPlaceholder(name, declared, b.template_variables) ? '' : undefined),
    b.html,
    b.text,
    b.subject,
  );
  if (unknown.length > 0) throw missingVariableError(unknown, 'html');
  const requestedAt = parseScheduledAt(scheduledAt ?? undefined, now) ?? now;
  const daily = deps.config.CLOUD ? PLANS[team.plan].emailsPerDay : null;
  let plan;
  try {
    plan = planBroadcast({
      audience,
      providerRate: deps.config.PROVIDER_RATE_PER_SECOND,
      now,
      requestedAt,
      // Broadcasts running in the region (or due to start by this one's start) hold it; one scheduled later does not.
      busyUntil: Math.max(
        0,
        ...lanes
          .filter((l) => l.id !== id && l.finishesAt > now && l.startsAt <= Math.max(now, requestedAt))
          .map((l) => l.finishesAt),
      ),
      daily: daily === null ? null : { cap: daily, usedToday },
      monthly,
    });
  } catch (error) {
    if (error instanceof BroadcastTooLarge) throw new ApiError('broadcast_too_large', error.message, { cause: error });
    throw error;
  }
  const nowIso = new Date(now).toISOString();
  const next = {
    ...b,
    status: 'sending' as const,
    sent_at: nowIso,
    updated_at: nowIso,
    scheduled_at: requestedAt > now ? new Date(requestedAt).toISOString() : null,
    domain_id: domain.id,
    domain_name: domain.name,
    region: domain.region,
    plan: {
      starts_at: plan.startsAt,
      rate: plan.rate,
      daily_cap: plan.dailyCap,
      used_on_start_day: plan.usedOnStartDay,
      period_left: plan.periodLeft ?? null,
      renews_at: plan.renewsAt ?? null,
      audience,
      finishes_at: plan.finishesAt,
      days: plan.days,
    },
    sent_count: 0,
    failed_count: 0,
    canceled_count: 0,
    last_sent_at: null,
  };
  if (!(await putBroadcast(deps, next, 'draft')))
    throw new ApiError('invalid_parameter', 'This broadcast was sent meanwhile by another request.');
  await holdLane(deps, domain.region, id, team.id, plan.startsAt, regionBusyUntil(plan));
  await kickFanOut(deps, { teamId: team.id, broadcastId: id });
  return {
    id,
    // No recipient, no last send.
    finishes_at: audience === 0 ? null : new Date(plan.finishesAt).toISOString(),
    estimated: true,
    ...(plan.warning ? { warning: plan.warning } : {}),
  };
};

/**
 * The operator pause that refuses a team's broadcast sends from a delivery region, the team's
 * first; expired ones do not count, and a region pause that waits for the region's platform rate
 * clears itself (and is removed) once that rate is back under the risk lines.
 */
export const broadcastPauseFor = async (
  deps: Deps,
  teamId: string,
  region: string,
): Promise<BroadcastPause | undefined> => {
  const pauses = await activePauses(deps, teamId, region, deps.clock.now());
  const team = pauses.find((p) => p.scope === 'team');
  if (team) return team;
  const held = pauses.find((p) => p.scope === 'region');
  if (held?.untilRecovered && (await regionRecovered(deps, region))) {
    await setPause(deps, { scope: 'region', target: region, clear: true });
    return undefined;
  }
  return held;
};
