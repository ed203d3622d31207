import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, queryPages, transact, updateItem, type Write } from '../../table/ops.ts';
import { notFound } from '../../errors/api-error.ts';
import { syncInboundRecipients } from './inbound-recipients.ts';
import { claimDomainWrite, findDomainClaim, takeOverDomainWrite, type DomainClaim } from '../../table/domain-claims.ts';
import { CLAIM_GRACE_PERIOD_MS, CLAIM_OWNER_ACTIVITY_MS } from '../../limits.ts';
import { eventItem, publishEvents, type EventRecord } from '../events/record-event.ts';
import { emailMetrics } from '../metrics/email-metrics.ts';
import { domainEventData, domainFromItem } from './domain.ts';
import {
  claimItem,
  claimView,
  FINAL,
  iso,
  loadClaimItem,
  TXT_PREFIX,
  type BlockedReason,
  type Claim,
  type ClaimStatus,
} from './domain-claim.ts';

/** GET /domains/{id}/claim: the team's latest claim of the placeholder domain, brought up to date. */
export const getClaim = async (deps: Deps, teamId: string, domainId: string) => {
  const claim = await loadClaimItem(deps, teamId, domainId);
  if (!claim) throw notFound('Domain claim');
  return claimView(await advanceClaim(deps, claim, claim.provenAt !== null));
};

/** POST /domains/{id}/claim/verify: looks up the TXT record and, once proven and not blocked, moves the domain. */
export const verifyClaim = async (deps: Deps, teamId: string, domainId: string) => {
  const claim = await loadClaimItem(deps, teamId, domainId);
  if (!claim) throw notFound('Domain claim');
  return claimView(await advanceClaim(deps, claim, true));
};

/** Stores a claim's new state, only while it is still the state read (a concurrent change wins). */
const save = async (deps: Deps, before: Claim, next: Claim, extra: readonly Write[] = []): Promise<Claim> => {
  const written = await transact(deps, [
    {
      put: claimItem(next),
      when: {
        and: [
          { attr: 'id', eq: before.id },
          { attr: 'status', eq: before.status },
        ],
      },
    },
    ...extra,
  ]);
  if (written.ok) return next;
  const now = await loadClaimItem(deps, before.teamId, before.domainId);
  if (!now) throw notFound('Domain claim');
  return now;
};

/**
 * Ends a claim that will not complete: its placeholder domain goes (the name guard and the
 * counter with it), so the team may claim again or add the domain.
 */
const end = (deps: Deps, c: Claim, status: ClaimStatus, failureReason: string | null = null) =>
  save(deps, c, { ...c, status, blockedReason: null, failureReason }, [
    {
      delete: keys.domain.item(c.teamId, c.domainId),
      when: { attr: 'claim_placeholder', eq: true },
    },
    { delete: keys.domain.nameGuard(c.teamId, c.name), when: { attr: 'domain_id', eq: c.domainId } },
    { update: keys.domain.counter(c.teamId), change: { add: { count: -1 } } },
  ]);

/** Whether the holder has scheduled emails from its domain (due later at the provider). */
const scheduledFrom = async (deps: Deps, holder: DomainClaim): Promise<boolean> => {
  const now = iso(deps.clock.now());
  for (let shard = 0; shard < keys.email.dueShards; shard++) {
    for await (const page of queryPages(deps, {
      ...keys.email.sendDuePartition(shard),
      from: now,
      filter: {
        and: [
          { attr: 'team_id', eq: holder.teamId },
          { attr: 'domain_id', eq: holder.domainId },
          { attr: 'status', eq: 'scheduled' },
        ],
      },
      project: ['id'],
    }))
      if (page.items.length > 0) return true;
  }
  return false;
};

/** Whether the holder sent from its domain within CLAIM_OWNER_ACTIVITY_MS. */
const sentRecently = async (deps: Deps, holder: DomainClaim): Promise<boolean> => {
  const now = deps.clock.now();
  const m = await emailMetrics(deps, holder.teamId, {
    start_date: iso(now - CLAIM_OWNER_ACTIVITY_MS),
    end_date: iso(now),
    timezone: 'UTC',
    granularity: 'hourly',
    metrics: ['sent'],
    domain_id: [holder.domainId],
  });
  return Number(m.totals.sent ?? 0) > 0;
};

/**
 * Brings a claim up to date: an unproven claim past its time expires; with `check`, its TXT
 * record is looked up; a proven one waits while a block holds (grace_period after the proof, the
 * holder's scheduled emails from the domain, the holder's sends within a day) and then completes.
 * A claim whose name another claim took after it was made is superseded; one whose name nobody
 * holds any more (and no identity of another account has) is canceled.
 */
export const advanceClaim = async (deps: Deps, claim: Claim, check: boolean): Promise<Claim> => {
  if (claim.status === 'completed') {
    await installIdentity(deps, claim);
    return claim;
  }
  if (FINAL.includes(claim.status)) return claim;
  const now = deps.clock.now();
  const holder = await findDomainClaim(deps, claim.name);
  if (holder?.teamId === claim.teamId && holder.domainId === claim.domainId)
    return save(deps, claim, { ...claim, status: 'completed', blockedReason: null });
  if (holder) {
    const held = await getItem(deps, keys.domain.item(holder.teamId, holder.domainId));
    if (typeof held?.claimed_at === 'string' && held.claimed_at > claim.createdAt)
      return end(deps, claim, 'superseded');
  } else {
    const identity = await deps.identities.find({ domain: claim.name, region: claim.region });
    if (!identity || identity.ours) return end(deps, claim, 'canceled');
  }
  let current = claim;
  if (!current.provenAt) {
    if (now >= Date.parse(current.expiresAt)) return end(deps, current, 'expired');
    if (!check) return current;
    const value = `${TXT_PREFIX}${current.token}`;
    const found = (await deps.txt.txt(current.name)).some((r) => r.trim() === value);
    if (!found) return current;
    const proven: Claim = { ...current, status: 'verified', provenAt: iso(now) };
    const told = holder
      ? eventItem(deps, holder.teamId, 'domain.claim.verified', {
          domain_id: holder.domainId,
          name: current.name,
          status: 'verified',
          moves_after: iso(now + CLAIM_GRACE_PERIOD_MS),
        })
      : undefined;
    current = await save(deps, current, proven, told ? [{ put: told.item }] : []);
    if (current !== proven) return current;
    if (told) await publishEvents(deps, [told.record]);
  }
  if (holder) {
    const reason: BlockedReason | null =
      now < Date.parse(current.provenAt!) + CLAIM_GRACE_PERIOD_MS
        ? 'grace_period'
        : (await scheduledFrom(deps, holder))
          ? 'pending_scheduled_emails'
          : (await sentRecently(deps, holder))
            ? 'recent_owner_activity'
            : null;
    if (reason) {
      if (current.status === 'blocked' && current.blockedReason === reason) return current;
      return save(deps, current, { ...current, status: 'blocked', blockedReason: reason });
    }
  }
  return complete(deps, current, holder);
};

/**
 * Moves the name: the claimant's placeholder becomes its domain (it holds the name; its identity
 * is made next), the holder's domain stops sending (failed, claimed away), and both teams get a
 * domain.claim.completed event, in one transaction.
 */
const complete = async (deps: Deps, c: Claim, holder: DomainClaim | undefined): Promise<Claim> => {
  const at = iso(deps.clock.now());
  const events: ReturnType<typeof eventItem>[] = [
    eventItem(deps, c.teamId, 'domain.claim.completed', {
      ...claimView({ ...c, status: 'completed', blockedReason: null }),
    }),
  ];
  const writes: Write[] = [
    {
      update: keys.domain.item(c.teamId, c.domainId),
      change: { set: { claimed_at: at, identity_pending: true }, remove: ['claim_placeholder'] },
      when: { attr: 'claim_placeholder', eq: true },
    },
    holder
      ? takeOverDomainWrite(c.name, holder, { teamId: c.teamId, domainId: c.domainId })
      : claimDomainWrite(c.name, { teamId: c.teamId, domainId: c.domainId }),
  ];
  let holderRegion: string | undefined;
  if (holder) {
    const held = await getItem(deps, keys.domain.item(holder.teamId, holder.domainId));
    holderRegion = held?.region;
    if (held) {
      writes.push({
        update: keys.domain.item(holder.teamId, holder.domainId),
        change: { set: { status: 'failed', claimed_away_at: at } },
        when: { exists: true },
      });
      events.push(
        eventItem(deps, holder.teamId, 'domain.claim.completed', {
          domain_id: holder.domainId,
          name: c.name,
          status: 'completed',
          claimed_at: at,
        }),
      );
      events.push(
        eventItem(
          deps,
          holder.teamId,
          'domain.updated',
          domainEventData(domainFromItem({ ...held, status: 'failed', claimed_away_at: at }), deps.config),
        ),
      );
    }
  }
  const done: Claim = { ...c, status: 'completed', blockedReason: null };
  const saved = await save(deps, c, done, [...writes, ...events.map((e) => ({ put: e.item }))]);
  if (saved !== done) return saved;
  await publishEvents(
    deps,
    events.map((e): EventRecord => e.record),
  );
  // A name no team held before is held now (a name taken over stays held).
  if (!holder) await syncInboundRecipients(deps);
  await installIdentity(deps, done, holderRegion);
  return done;
};

/**
 * Gives a completed claim's domain its identity: where this deployment made the identity, it is
 * made anew (fresh DKIM keys, so the previous holder's records cannot be reused) and the domain
 * starts `not_started` (verify it with POST /domains/{id}/verify); an identity of another account
 * is sent through as it is (verified if SES has verified it), and never deleted. Repeated at the
 * claim's next read until it is done.
 */
const installIdentity = async (deps: Deps, c: Claim, holderRegion?: string): Promise<void> => {
  const row = await getItem(deps, keys.domain.item(c.teamId, c.domainId));
  if (!row?.identity_pending) return;
  const existing = await deps.identities.find({ domain: c.name, region: holderRegion ?? c.region });
  let status: 'not_started' | 'verified' | 'pending' = 'not_started';
  let tokens: readonly string[];
  if (existing && !existing.ours) {
    tokens = existing.dkimTokens;
    status = existing.verified ? 'verified' : 'pending';
  } else {
    if (existing) await deps.identities.remove({ domain: c.name, region: holderRegion ?? c.region });
    tokens = (
      await deps.identities.create({ domain: c.name, region: c.region, mailFromDomain: `${c.returnPath}.${c.name}` })
    ).dkimTokens;
  }
  await updateItem(
    deps,
    keys.domain.item(c.teamId, c.domainId),
    { set: { dkim_tokens: tokens, status }, remove: ['identity_pending'] },
    { attr: 'identity_pending', eq: true },
  );
};
