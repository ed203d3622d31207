import type { Deps } from '../runtime/deps.ts';
import { keys } from './keys.ts';
import { queryPage } from './query-page.ts';
import type { Page, PageRequest } from '../domain/paging.ts';
import { addToCounters, deleteItem, getItem, putItem, queryAll, transact, updateItem, type Condition } from './ops.ts';
import type { DeliveryStatus, WebhookStatus } from '../domain/webhooks/vocabulary.ts';

/**
 * Storage of webhook endpoints, their delivery log and their per-endpoint limits. Every
 * table access of the webhook domain is here (through ops.ts); the domain works with the records below.
 */

/** A webhook endpoint as stored. */
export interface WebhookRecord {
  readonly id: string;
  readonly teamId: string;
  readonly endpoint: string;
  readonly events: readonly string[];
  readonly status: WebhookStatus;
  readonly createdAt: string;
  readonly secret: string;
  readonly previousSecret: string | null;
  /** Epoch ms until which the previous secret also signs; null without one. */
  readonly previousSecretExpiresAt: number | null;
  /** Exhausted deliveries since the last success (the disable rule). */
  readonly consecutiveExhausted: number;
  /** Outcomes of the last ten settled deliveries, newest last. */
  readonly recentOutcomes: readonly ('success' | 'exhausted')[];
  /** Epoch ms of the last owner notice per kind (the once-a-day rule). */
  readonly noticesSentAt: Readonly<Record<string, number>>;
}

const webhookOf = (i: Record<string, any>): WebhookRecord => ({
  id: i.id,
  teamId: i.team_id,
  endpoint: i.endpoint,
  events: i.events ?? [],
  status: i.status,
  createdAt: i.created_at,
  secret: i.secret,
  previousSecret: i.previous_secret ?? null,
  previousSecretExpiresAt: i.previous_secret_expires_at ?? null,
  consecutiveExhausted: i.consecutive_exhausted ?? 0,
  recentOutcomes: i.recent_outcomes ?? [],
  noticesSentAt: i.notices_sent_at ?? {},
});

export const webhookStore = {
  async put(deps: Deps, w: WebhookRecord): Promise<void> {
    await putItem(deps, {
      ...keys.webhook.item(w.teamId, w.id),
      type: 'webhook',
      id: w.id,
      team_id: w.teamId,
      endpoint: w.endpoint,
      events: [...w.events],
      status: w.status,
      created_at: w.createdAt,
      secret: w.secret,
      previous_secret: w.previousSecret,
      previous_secret_expires_at: w.previousSecretExpiresAt,
      consecutive_exhausted: w.consecutiveExhausted,
      recent_outcomes: [...w.recentOutcomes],
      notices_sent_at: { ...w.noticesSentAt },
    });
  },

  async get(deps: Deps, teamId: string, id: string): Promise<WebhookRecord | undefined> {
    const item = await getItem(deps, keys.webhook.item(teamId, id));
    return item ? webhookOf(item) : undefined;
  },

  async page(deps: Deps, teamId: string, page: PageRequest): Promise<Page<WebhookRecord>> {
    const { items, hasMore } = await queryPage(
      deps,
      { pk: keys.webhook.partition(teamId), prefix: keys.webhook.prefix },
      page,
    );
    return { items: items.map(webhookOf), hasMore };
  },

  async all(deps: Deps, teamId: string): Promise<WebhookRecord[]> {
    return (
      await queryAll(deps, { pk: keys.webhook.partition(teamId), prefix: keys.webhook.prefix, consistent: true })
    ).map(webhookOf);
  },

  /** Sets fields of an existing endpoint; false when it no longer exists. */
  async update(
    deps: Deps,
    teamId: string,
    id: string,
    set: Partial<
      Record<
        | 'endpoint'
        | 'events'
        | 'status'
        | 'secret'
        | 'previous_secret'
        | 'previous_secret_expires_at'
        | 'consecutive_exhausted'
        | 'recent_outcomes',
        unknown
      >
    >,
  ): Promise<boolean> {
    if (Object.keys(set).length === 0) return true;
    return (await updateItem(deps, keys.webhook.item(teamId, id), { set }, { exists: true })) !== undefined;
  },

  async remove(deps: Deps, teamId: string, id: string): Promise<void> {
    await deleteItem(deps, keys.webhook.item(teamId, id));
  },

  /**
   * Records a settled delivery on the endpoint: resets or counts the consecutive exhausted
   * deliveries and keeps the last ten outcomes. Returns the endpoint after the change.
   */
  async settle(
    deps: Deps,
    current: WebhookRecord,
    outcome: 'success' | 'exhausted',
  ): Promise<WebhookRecord | undefined> {
    const recent = [...current.recentOutcomes, outcome].slice(-10);
    const change =
      outcome === 'success'
        ? { set: { consecutive_exhausted: 0, recent_outcomes: recent } }
        : { set: { recent_outcomes: recent }, add: { consecutive_exhausted: 1 } };
    const out = await updateItem(deps, keys.webhook.item(current.teamId, current.id), change, { exists: true });
    return out ? webhookOf(out) : undefined;
  },

  /** Moves an enabled endpoint to disabled; true only for the call that made the change. */
  async disable(deps: Deps, teamId: string, id: string): Promise<boolean> {
    return (
      (await updateItem(
        deps,
        keys.webhook.item(teamId, id),
        { set: { status: 'disabled' } },
        { attr: 'status', eq: 'enabled' },
      )) !== undefined
    );
  },

  /** Claims the right to send one owner notice of a kind, at most once per `intervalMs`. */
  async claimNotice(
    deps: Deps,
    teamId: string,
    id: string,
    kind: string,
    now: number,
    intervalMs: number,
  ): Promise<boolean> {
    const attr = `notices_sent_at.${kind}`;
    const when: Condition = {
      and: [
        { exists: true },
        {
          or: [
            { attr, absent: true },
            { attr, lt: now - intervalMs },
          ],
        },
      ],
    };
    return (await updateItem(deps, keys.webhook.item(teamId, id), { set: { [attr]: now } }, when)) !== undefined;
  },
};

/** One event's delivery to one endpoint. */
export interface DeliveryRecord {
  readonly teamId: string;
  readonly webhookId: string;
  readonly eventId: string;
  readonly eventType: string;
  /** The exact body sent on every attempt (signatures cover these bytes). */
  readonly payload: string;
  /** The webhook-id header: fixed at the first attempt, the same on every retry. */
  readonly messageId: string;
  readonly status: DeliveryStatus;
  /** Epoch ms the delivery was queued (the 24-hour lifetime starts here). */
  readonly queuedAt: number;
  readonly createdAt: string;
  /** Failed attempts so far (a 429 with Retry-After does not count). */
  readonly failures: number;
  /** Epoch ms of the next attempt while pending; null otherwise. */
  readonly nextAttemptAt: number | null;
  readonly claimedUntil: number | null;
  /** Why a failed delivery ended (exhausted, endpoint disabled, target refused). */
  readonly endReason: string | null;
}

const deliveryOf = (i: Record<string, any>): DeliveryRecord => ({
  teamId: i.team_id,
  webhookId: i.webhook_id,
  eventId: i.event_id,
  eventType: i.event_type,
  payload: i.payload,
  messageId: i.message_id,
  status: i.status,
  queuedAt: i.queued_at,
  createdAt: i.created_at,
  failures: i.failures ?? 0,
  nextAttemptAt: i.next_attempt_at ?? null,
  claimedUntil: i.claimed_until ?? null,
  endReason: i.end_reason ?? null,
});

/** One request made for a delivery. */
export interface AttemptRecord {
  readonly id: string;
  readonly eventId: string;
  /** 0 when no response came (timeout, connection error, refused target). */
  readonly httpStatusCode: number;
  readonly response: string;
  readonly sentAt: string;
}

const attemptOf = (i: Record<string, any>): AttemptRecord => ({
  id: i.id,
  eventId: i.event_id,
  httpStatusCode: i.http_status_code,
  response: i.response,
  sentAt: i.sent_at,
});

const ttlOf = (deps: Deps, retentionDays: number) => Math.floor(deps.clock.now() / 1000) + retentionDays * 86_400;

const attemptItem = (deps: Deps, d: DeliveryRecord, a: AttemptRecord, retentionDays: number) => ({
  ...keys.webhook.attempt(d.teamId, d.webhookId, d.eventId, a.id),
  type: 'webhook_attempt',
  id: a.id,
  event_id: d.eventId,
  http_status_code: a.httpStatusCode,
  response: a.response,
  sent_at: a.sentAt,
  ttl: ttlOf(deps, retentionDays),
});

export const deliveryStore = {
  /** Creates the delivery row; false when it already exists (a repeated fan-out). */
  async create(
    deps: Deps,
    d: Omit<DeliveryRecord, 'claimedUntil' | 'endReason'>,
    retentionDays: number,
  ): Promise<boolean> {
    return putItem(
      deps,
      {
        ...keys.webhook.delivery(d.teamId, d.webhookId, d.eventId),
        type: 'webhook_delivery',
        team_id: d.teamId,
        webhook_id: d.webhookId,
        event_id: d.eventId,
        event_type: d.eventType,
        payload: d.payload,
        message_id: d.messageId,
        status: d.status,
        queued_at: d.queuedAt,
        created_at: d.createdAt,
        failures: d.failures,
        next_attempt_at: d.nextAttemptAt,
        ttl: ttlOf(deps, retentionDays),
      },
      { exists: false },
    );
  },

  async get(deps: Deps, teamId: string, webhookId: string, eventId: string): Promise<DeliveryRecord | undefined> {
    const item = await getItem(deps, keys.webhook.delivery(teamId, webhookId, eventId));
    // DynamoDB removes expired rows within days; the log answers as if it had already.
    if (!item || (typeof item.ttl === 'number' && item.ttl * 1000 < deps.clock.now())) return undefined;
    return deliveryOf(item);
  },

  async page(
    deps: Deps,
    teamId: string,
    webhookId: string,
    page: PageRequest,
    status?: DeliveryStatus,
  ): Promise<Page<DeliveryRecord>> {
    const live: Condition = { attr: 'ttl', gt: Math.floor(deps.clock.now() / 1000) - 1 };
    const { items, hasMore } = await queryPage(
      deps,
      {
        pk: keys.webhook.logPartition(teamId, webhookId),
        prefix: keys.webhook.deliveryPrefix,
        filter: status ? { and: [live, { attr: 'status', eq: status }] } : live,
      },
      page,
    );
    return { items: items.map(deliveryOf), hasMore };
  },

  /**
   * Claims a due delivery for one attempt: pending and due, or attempting with an expired claim
   * (its worker died mid-request). Returns the claimed row, or undefined when another worker has
   * it or it is not due.
   */
  async claim(
    deps: Deps,
    teamId: string,
    webhookId: string,
    eventId: string,
    now: number,
    leaseMs: number,
  ): Promise<DeliveryRecord | undefined> {
    const out = await updateItem(
      deps,
      keys.webhook.delivery(teamId, webhookId, eventId),
      { set: { status: 'attempting', claimed_until: now + leaseMs } },
      {
        or: [
          {
            and: [
              { attr: 'status', eq: 'pending' },
              { attr: 'next_attempt_at', lt: now + 1 },
            ],
          },
          {
            and: [
              { attr: 'status', eq: 'attempting' },
              { attr: 'claimed_until', lt: now },
            ],
          },
        ],
      },
    );
    return out ? deliveryOf(out) : undefined;
  },

  /**
   * Ends or reschedules a claimed delivery, and records the attempt that led there, in one
   * write. The delivery changes only while it is still attempting (a replay may have reset it).
   */
  async release(
    deps: Deps,
    d: DeliveryRecord,
    next: { status: DeliveryStatus; failures: number; nextAttemptAt: number | null; endReason?: string | null },
    attempt?: AttemptRecord,
    retentionDays = 30,
  ): Promise<void> {
    const key = keys.webhook.delivery(d.teamId, d.webhookId, d.eventId);
    const change = {
      set: {
        status: next.status,
        failures: next.failures,
        next_attempt_at: next.nextAttemptAt,
        end_reason: next.endReason ?? null,
      },
      remove: ['claimed_until'],
    };
    const when: Condition = { attr: 'status', eq: 'attempting' };
    if (!attempt) {
      await updateItem(deps, key, change, when);
      return;
    }
    const written = await transact(deps, [
      { update: key, change, when },
      { put: attemptItem(deps, d, attempt, retentionDays) },
    ]);
    // The delivery moved on (replayed) while this attempt ran: keep the attempt in the log.
    if (!written.ok) await putItem(deps, attemptItem(deps, d, attempt, retentionDays));
  },

  /** Makes a delivery pending again now, with a fresh lifetime (replay). */
  async requeue(deps: Deps, d: DeliveryRecord, now: number, retentionDays: number): Promise<void> {
    await updateItem(deps, keys.webhook.delivery(d.teamId, d.webhookId, d.eventId), {
      set: {
        status: 'pending',
        failures: 0,
        next_attempt_at: now,
        queued_at: now,
        end_reason: null,
        ttl: ttlOf(deps, retentionDays),
      },
      remove: ['claimed_until'],
    });
  },

  async attempts(
    deps: Deps,
    teamId: string,
    webhookId: string,
    eventId: string,
    page: PageRequest,
  ): Promise<Page<AttemptRecord>> {
    const { items, hasMore } = await queryPage(
      deps,
      { pk: keys.webhook.logPartition(teamId, webhookId), prefix: keys.webhook.attemptPrefix(eventId) },
      page,
    );
    return { items: items.map(attemptOf), hasMore };
  },
};

/** The per-endpoint limits, shared by every worker through conditional writes. */
export const endpointLimits = {
  /**
   * Takes one of the endpoint's `max` in-flight places for `leaseMs`, in one conditional write on
   * the endpoint's in-flight item: the count `n` goes up only below `max`, and the holder's lease
   * end is noted beside it. False when every place is held.
   */
  async takeSlot(
    deps: Deps,
    webhookId: string,
    max: number,
    holder: string,
    leaseMs: number,
    now: number,
  ): Promise<boolean> {
    const key = keys.webhook.inFlight(webhookId);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const taken = await updateItem(
          deps,
          key,
          { set: { [`leases.${holder}`]: now + leaseMs }, add: { n: 1 } },
          {
            or: [
              { attr: 'n', absent: true },
              { attr: 'n', lt: max },
            ],
          },
        );
        return taken !== undefined;
      } catch (error) {
        // The first request to an endpoint: its item (and lease map) does not exist yet.
        if ((error as Error).name !== 'ValidationException') throw error;
        await putItem(deps, { ...key, type: 'webhook_in_flight', n: 0, leases: {} }, { exists: false });
      }
    }
    return false;
  },

  /** Gives a place back (once: only while the holder's lease is still noted). */
  async releaseSlot(deps: Deps, webhookId: string, holder: string, until?: number): Promise<void> {
    const attr = `leases.${holder}`;
    await updateItem(
      deps,
      keys.webhook.inFlight(webhookId),
      { remove: [attr], add: { n: -1 } },
      until === undefined ? { attr, present: true } : { attr, eq: until },
    );
  },

  /**
   * Frees the places of holders whose lease lapsed (workers that died mid-request): how many,
   * and when the live leases end (each holder's lease is its start plus the lease length).
   */
  async reapLapsed(deps: Deps, webhookId: string, now: number): Promise<{ reaped: number; liveUntil: number[] }> {
    const leases = ((await getItem(deps, keys.webhook.inFlight(webhookId)))?.leases ?? {}) as Record<string, number>;
    const lapsed = Object.entries(leases).filter(([, until]) => until < now);
    for (const [holder, until] of lapsed) await endpointLimits.releaseSlot(deps, webhookId, holder, until);
    return { reaped: lapsed.length, liveUntil: Object.values(leases).filter((until) => until >= now) };
  },

  /** Counts one request in the current second; false when the second already holds `rate`. */
  async takeSecond(deps: Deps, webhookId: string, rate: number, second: number): Promise<boolean> {
    return (
      (await addToCounters(deps, keys.webhook.second(webhookId, second), {
        add: { requests: 1 },
        ceilings: { requests: rate },
        expiresAt: second + 120,
      })) !== undefined
    );
  },
};
