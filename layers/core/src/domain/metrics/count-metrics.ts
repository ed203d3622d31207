import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
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

/** The attribute holding one metric of a domain (`D#<id>#<metric>`) or a broadcast (`B#<id>#<metric>`) in an hour item. */
const domainAttr = (domainId: string, metric: Counted) => `D#${domainId}#${metric}`;
const broadcastAttr = (broadcastId: string, metric: Counted) => `B#${broadcastId}#${metric}`;

/**
 * Counts `counts` for the email in the current UTC hour: one write, to the hour's item of the
 * email's shard, holding the team's totals and its domain's and broadcast's. Callers count only
 * after the conditional state change the count stands for succeeded (so a redelivered event,
 * which changes nothing, counts nothing), outside that change's transaction: the hour item is
 * shared by every email of the team. A count that cannot be written is logged and dropped, never
 * failing the change it follows.
 */
export const countMetrics = async (
  deps: Deps,
  e: Counting,
  counts: Partial<Record<Counted, number>>,
): Promise<void> => {
  const add: Record<string, number> = {};
  for (const [metric, n] of Object.entries(counts) as [Counted, number][]) {
    if (!n) continue;
    add[metric] = n;
    if (e.domain_id) add[domainAttr(e.domain_id, metric)] = n;
    if (e.broadcast_id) add[broadcastAttr(e.broadcast_id, metric)] = n;
  }
  if (Object.keys(add).length === 0) return;
  const now = deps.clock.now();
  try {
    await updateItem(deps, keys.metrics.hour(e.team_id, new Date(now).toISOString().slice(0, 13), e.id), {
      add,
      expiresAt: Math.ceil(now / 1000) + METRICS_RETENTION_DAYS * 86_400,
    });
  } catch (error) {
    deps.logger.warn('email metrics not counted', {
      team_id: e.team_id,
      email_id: e.id,
      counts: add,
      error: String(error),
    });
  }
};
