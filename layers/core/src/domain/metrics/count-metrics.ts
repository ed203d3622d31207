import type { Deps } from '../../runtime/deps.ts';
import { keys, type MetricsOwner } from '../../table/keys.ts';
import { updateItem } from '../../table/ops.ts';
import { METRICS_RETENTION_DAYS } from '../../limits.ts';

/**
 * The counts kept as events arrive, per team and UTC hour (the metrics API sums hours into any
 * timezone's days, weeks and months). `bounced` and the rates are worked out from these when read.
 */
export const COUNTED = [
  'sent',
  'delivered',
  'delivery_delayed',
  'bounced_permanent',
  'bounced_transient',
  'bounced_undetermined',
  'complained',
  'failed',
  'suppressed',
  'opened',
  'unique_opened',
  'clicked',
  'unique_clicked',
  'unsubscribed',
  'received',
] as const;
export type Counted = (typeof COUNTED)[number];

/** The email a count belongs to: its domain's and broadcast's counts move with the team's. */
export interface Counting {
  readonly team_id: string;
  readonly id: string;
  readonly domain_id?: string | null | undefined;
  readonly broadcast_id?: string | null | undefined;
}

/**
 * Counts `counts` for the email in the current UTC hour: one write to the hour's item of its
 * domain (and one to its broadcast's, for broadcast mail), in the email's shard. An item holds
 * one owner's counts, so a write stays 1 WCU however many domains and broadcasts the team has.
 * Callers count only after the conditional state change the count stands for succeeded (so a
 * redelivered event, which changes nothing, counts nothing), outside that change's transaction:
 * the hour item is shared by every email of the domain. A count that cannot be written is logged
 * and dropped, never failing the change it follows.
 */
export const countMetrics = async (
  deps: Deps,
  e: Counting,
  counts: Partial<Record<Counted, number>>,
): Promise<void> => {
  const add = Object.fromEntries(Object.entries(counts).filter(([, n]) => n)) as Record<string, number>;
  if (Object.keys(add).length === 0) return;
  const now = deps.clock.now();
  const hour = new Date(now).toISOString().slice(0, 13);
  const owners: MetricsOwner[] = [
    { kind: 'domain', id: e.domain_id || null },
    ...(e.broadcast_id ? [{ kind: 'broadcast' as const, id: e.broadcast_id }] : []),
  ];
  try {
    await Promise.all(
      owners.map((owner) =>
        updateItem(deps, keys.metrics.hour(e.team_id, hour, owner, e.id), {
          add,
          expiresAt: Math.ceil(now / 1000) + METRICS_RETENTION_DAYS * 86_400,
        }),
      ),
    );
  } catch (error) {
    deps.logger.warn('email metrics not counted', {
      team_id: e.team_id,
      email_id: e.id,
      counts: add,
      error: String(error),
    });
  }
};
