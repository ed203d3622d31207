import type { Deps } from '../../../runtime/deps.ts';
import { keys } from '../../../table/keys.ts';
import { deleteItem, getItem, updateItem } from '../../../table/ops.ts';
import { TransportError, type PauseReason } from '../../../ports/mail-transport.ts';
import { lineRate, noteAccountRate } from '../../../table/line-rate.ts';

/**
 * A region's send line parked by the provider's own state: SES paused or disabled the account's
 * sending, its 24-hour quota is spent, the account is suspended, or the operator's configuration is
 * refused (the configuration set is missing, the role may not send). Nothing is sent in the
 * region meanwhile and no email fails: each waits, `queued`, and goes once the line resumes. The
 * line resumes by itself: every PROVIDER_PARK_CHECK_SECONDS one sender reads the account
 * (GetAccount); when it sends again (enabled, quota left) the line opens, and a configuration
 * fault is probed by the sends that follow (one that fails again parks the line again).
 */
export interface ParkedLine {
  readonly region: string;
  readonly reason: PauseReason;
  /** The provider's words (its error or the account's state). */
  readonly detail: string;
  /** When the line was parked (ISO 8601). */
  readonly since: string;
  /** When the account is checked again (epoch ms). */
  readonly checkAt: number;
}

/** How long a process trusts a line it read unparked (a park elsewhere reaches its sends within this). */
const OPEN_SEEN_MS = 2_000;

/** Per table and region, the line as this process last read it, and until when that reading holds. */
const seen = new Map<string, { parked: ParkedLine | undefined; until: number }>();
const seenKey = (deps: Deps, region: string) => `${deps.table}|${region}`;

const parkedOf = (region: string, item: Record<string, any> | undefined): ParkedLine | undefined =>
  item?.reason
    ? {
        region,
        reason: item.reason as PauseReason,
        detail: String(item.detail ?? ''),
        since: String(item.since ?? ''),
        checkAt: Number(item.check_at ?? 0),
      }
    : undefined;

/** The region's parked state as stored (no cache): the dashboard's banner and the operator's view. */
export const readParkedLine = async (deps: Deps, region: string): Promise<ParkedLine | undefined> =>
  parkedOf(region, await getItem(deps, keys.pacing.parked(region)));

/** Every delivery region of the deployment whose line is parked now. */
export const parkedLines = async (deps: Deps): Promise<ParkedLine[]> =>
  (await Promise.all(deps.config.DELIVERY_REGIONS.map((r) => readParkedLine(deps, r)))).filter(
    (p): p is ParkedLine => p !== undefined,
  );

const checkDelayMs = (deps: Deps) => deps.config.PROVIDER_PARK_CHECK_SECONDS * 1000;

/**
 * Parks the region's line for `reason` (or keeps it parked, with the new reason): the account is
 * checked again after PROVIDER_PARK_CHECK_SECONDS. Logged as an error and counted in the
 * `SendLineParked` metric, which the operator's alarm watches.
 */
const parkLine = async (deps: Deps, region: string, reason: PauseReason, detail: string): Promise<ParkedLine> => {
  const now = deps.clock.now();
  const key = keys.pacing.parked(region);
  const set = { reason, detail: detail.slice(0, 500), check_at: now + checkDelayMs(deps), type: 'provider_line' };
  const since = new Date(now).toISOString();
  const item =
    (await updateItem(deps, key, { set: { ...set, since } }, { attr: 'reason', absent: true })) ??
    (await updateItem(deps, key, { set }));
  const parked = parkedOf(region, item) ?? { region, ...set, since, checkAt: set.check_at };
  seen.set(seenKey(deps, region), { parked, until: parked.checkAt });
  deps.logger.error('the provider send line is parked: nothing is sent in this region until the provider allows it', {
    region,
    reason,
    detail,
    since: parked.since,
  });
  deps.metrics.addMetric('SendLineParked', 'Count', 1);
  return parked;
};

/**
 * Why the provider account sends nothing now, by its own state (GetAccount): sending disabled or
 * paused, or the 24-hour quota spent; undefined when it sends. A refused read is its reason (a
 * permission fault); an unanswered one leaves the line as it was (`keep`).
 */
const accountBlocks = async (
  deps: Deps,
  region: string,
): Promise<{ reason: PauseReason; detail: string } | 'keep' | undefined> => {
  try {
    const account = await deps.providerAccount.read(region);
    noteAccountRate(deps, region, account.maxSendRate);
    if (!account.sendingEnabled)
      return account.enforcementStatus === 'SHUTDOWN'
        ? {
            reason: 'sending_paused',
            detail: `the provider paused the account's sending (${account.enforcementStatus})`,
          }
        : { reason: 'sending_disabled', detail: "the account's sending is disabled" };
    const quota = account.max24HourSend;
    if (quota !== undefined && quota >= 0 && (account.sentLast24Hours ?? 0) >= quota)
      return {
        reason: 'quota_exhausted',
        detail: `the 24-hour quota is spent (${account.sentLast24Hours} of ${quota} recipients)`,
      };
    return undefined;
  } catch (error) {
    if (error instanceof TransportError && error.kind === 'paused' && error.pause)
      return { reason: error.pause.reason, detail: error.message };
    return 'keep';
  }
};

/**
 * Whether the region's line is parked for a send about to go: undefined when it is open. A parked
 * line whose check is due is checked by the one sender that takes the check (a conditional write):
 * when the account sends again the line opens and this send goes (the probe a configuration
 * fault needs); otherwise it stays parked until the next check.
 */
export const lineParked = async (deps: Deps, region: string): Promise<ParkedLine | undefined> => {
  const k = seenKey(deps, region);
  const now = deps.clock.now();
  const cached = seen.get(k);
  let parked: ParkedLine | undefined;
  if (cached && cached.until > now) parked = cached.parked;
  else {
    parked = await readParkedLine(deps, region);
    seen.set(k, {
      parked,
      until: parked ? Math.max(now + 1, Math.min(parked.checkAt, now + OPEN_SEEN_MS)) : now + OPEN_SEEN_MS,
    });
  }
  if (!parked || now < parked.checkAt) return parked;
  const key = keys.pacing.parked(region);
  const next = now + checkDelayMs(deps);
  const took = await updateItem(deps, key, { set: { check_at: next } }, { attr: 'check_at', eq: parked.checkAt });
  if (!took) {
    // Another sender checks it (or the line opened meanwhile): read again.
    seen.delete(k);
    const now2 = await readParkedLine(deps, region);
    if (now2) seen.set(k, { parked: now2, until: Math.min(now2.checkAt, now + OPEN_SEEN_MS) });
    return now2 && now2.checkAt > now ? now2 : now2 ? { ...now2, checkAt: next } : undefined;
  }
  const blocked = await accountBlocks(deps, region);
  if (blocked === 'keep') {
    const kept = { ...parked, checkAt: next };
    seen.set(k, { parked: kept, until: next });
    return kept;
  }
  if (blocked) {
    // A suspended account reads as disabled: its reason stays the sharper one.
    const reason = parked.reason === 'account_suspended' ? parked.reason : blocked.reason;
    return parkLine(deps, region, reason, reason === parked.reason ? parked.detail : blocked.detail);
  }
  await deleteItem(deps, key, { attr: 'check_at', eq: next });
  seen.set(k, { parked: undefined, until: now + OPEN_SEEN_MS });
  deps.logger.warn('the provider send line resumes: the provider account sends again', {
    region,
    reason: parked.reason,
    since: parked.since,
  });
  return undefined;
};

/**
 * When a job of a parked region comes back: at the line's next check, spread over a second (a
 * backlog does not come back at one instant), within SQS's longest delay.
 */
export const parkedReturn = (deps: Deps, parked: ParkedLine): { back: number; delaySeconds: number } => {
  const now = deps.clock.now();
  const back = Math.max(parked.checkAt, now + 1000) + Math.floor(Math.random() * 1000);
  return { back, delaySeconds: Math.min(900, Math.ceil((back - now) / 1000)) };
};

/**
 * A send whose answer was lost (a reset, a timeout, a 5xx: TransportError `ambiguous`) is never
 * sent again blindly: SendEmail has no idempotency token. Its worker keeps the claim (the email
 * stays `sending`) and looks again after the claim's lease and grace (`uncertainWaitSeconds`, 3
 * minutes): the provider's Send event, found by the email's `email_id` tag, has moved it to `sent`
 * meanwhile (seconds, as a rule); without one it is claimable again, and the job sends it then.
 */
export const uncertainWaitSeconds = (leaseMs: number, graceMs: number): number =>
  Math.ceil((leaseMs + graceMs) / 1000) + 1;

/** Per table and region, when this process last read the provider account, and that read. */
const accountRead = new Map<string, { readonly at: number; readonly done: Promise<void> }>();

/**
 * Reads the provider account (GetAccount) at a worker's first send in the region and every
 * PROVIDER_ACCOUNT_REFRESH_SECONDS after: its maximum send rate becomes the line's rate (under the
 * ceiling, table/line-rate.ts), and an account that sends nothing now (sending disabled, the
 * 24-hour quota spent) parks the line before a send meets it. A refused or unanswered read
 * changes nothing (the sends themselves find the fault).
 */
const refreshAccount = (deps: Deps, region: string): Promise<void> => {
  const k = seenKey(deps, region);
  const now = deps.clock.now();
  const last = accountRead.get(k);
  // The sends that meet a read under way wait for it with its sender: a batch's jobs go on together.
  if (last !== undefined && now - last.at < deps.config.PROVIDER_ACCOUNT_REFRESH_SECONDS * 1000) return last.done;
  const done = (async () => {
    const blocked = await accountBlocks(deps, region);
    const accountState =
      blocked &&
      blocked !== 'keep' &&
      ['sending_paused', 'sending_disabled', 'quota_exhausted'].includes(blocked.reason);
    if (accountState && !(await readParkedLine(deps, region)))
      await parkLine(deps, region, blocked.reason, blocked.detail);
  })().catch((error: unknown) => {
    // A read that failed is no reading: the next send reads again.
    accountRead.delete(k);
    throw error;
  });
  accountRead.set(k, { at: now, done });
  return done;
};

/** The region's line rate for a send about to go, the account read first when due (`refreshAccount`). */
export const refreshedRate = async (deps: Deps, region: string): Promise<number> => {
  await refreshAccount(deps, region);
  return lineRate(deps, region);
};

/** Parks the region's line for a send SES refused for the account's state (TransportError `paused`). */
export const parkOn = (deps: Deps, region: string, error: TransportError): Promise<ParkedLine> =>
  parkLine(deps, region, error.pause?.reason ?? 'sending_paused', error.message);
