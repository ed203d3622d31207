import type { Deps } from '../runtime/deps.ts';
import { keys } from './keys.ts';
import type { Page, PageRequest } from '../domain/paging.ts';
import { deleteItem, getItem, putItem, queryAll, updateItem, type Condition } from './ops.ts';
import { queryPage, queryShardedPage } from './query-page.ts';
import type { DeliveryStatus, WebhookStatus } from '../domain/webhooks/vocabulary.ts';

/**
 * Storage of webhook endpoints and their delivery log (the per-endpoint limits are in
 * webhook-limits.ts). Every table access of the webhook domain is in these two (through ops.ts);
 * the domain works with the records below.
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

  /** A page of the endpoint's deliveries (of one status, when given), newest event first: every shard of the log read and merged. */
  async page(
    deps: Deps,
    teamId: string,
    webhookId: string,
    page: PageRequest,
    status?: DeliveryStatus,
  ): Promise<Page<DeliveryRecord>> {
    const live: Condition = { attr: 'ttl', gt: Math.floor(deps.clock.now() / 1000) - 1 };
    const { items, hasMore } = await queryShardedPage(
      deps,
      Array.from({ length: keys.webhook.logShards }, (_, shard) => ({
        pk: keys.webhook.logPartition(teamId, webhookId, shard),
        prefix: keys.webhook.deliveryPrefix,
        filter: status ? { and: [live, { attr: 'status', eq: status }] } : live,
      })),
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
   * Ends or reschedules a claimed delivery, after recording the attempt that led there. The
   * delivery changes only while it is still attempting (a replay may have reset it); the attempt
   * stays in the log either way. Two plain writes, not a transaction (which bills each item
   * twice): a worker that dies between them leaves the delivery claimed, and its claim lapses
   * into another attempt, as a death during the request does.
   */
  async release(
    deps: Deps,
    d: DeliveryRecord,
    next: { status: DeliveryStatus; failures: number; nextAttemptAt: number | null; endReason?: string | null },
    attempt?: AttemptRecord,
    retentionDays = 30,
  ): Promise<void> {
    if (attempt) await putItem(deps, attemptItem(deps, d, attempt, retentionDays));
    await updateItem(
      deps,
      keys.webhook.delivery(d.teamId, d.webhookId, d.eventId),
      {
        set: {
          status: next.status,
          failures: next.failures,
          next_attempt_at: next.nextAttemptAt,
          end_reason: next.endReason ?? null,
        },
        remove: ['claimed_until'],
      },
      { attr: 'status', eq: 'attempting' },
    );
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
      { pk: keys.webhook.attempt(teamId, webhookId, eventId, '').pk, prefix: keys.webhook.attemptPrefix(eventId) },
      page,
    );
    return { items: items.map(attemptOf), hasMore };
  },
};
