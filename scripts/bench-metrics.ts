/**
 * The email metrics' section of `npm run bench`: what the hourly counters cost per delivered event
 * (the provider-event recorder's writes with the count, and the count's own write), and what
 * GET /emails/metrics reads and how long it takes over 7 and 30 days.
 */
import type { Resend } from 'resend';
import type { Deps } from '@mailstack/core/runtime/deps';
import { keys } from '@mailstack/core/table/keys';
import { getItem, putItem } from '@mailstack/core/table/ops';
import { recordProviderEvent } from '@mailstack/core/domain/emails/pipeline/record-provider-event';
import { countMetrics } from '@mailstack/core/domain/metrics/count-metrics';

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export const benchMetrics = async (
  deps: Deps,
  resend: Resend,
  options: { teamId: string; emailId: string; events: number },
): Promise<void> => {
  const { teamId, events } = options;
  // `events` copies of a sent email in state `sent`, each then delivered by its provider event.
  const model = await getItem(deps, keys.email.item(teamId, options.emailId));
  if (!model) throw new Error(`bench: email ${options.emailId} is not stored`);
  const { gsi2pk: _pk, gsi2sk: _sk, ...rest } = model;
  const copies = Array.from({ length: events }, () => deps.ids.next());
  for (const id of copies) await putItem(deps, { ...rest, ...keys.email.item(teamId, id), id, status: 'sent' });
  const c0 = { ...deps.counters };
  for (const id of copies)
    await recordProviderEvent(deps, {
      eventType: 'Delivery',
      mail: { messageId: `bench-${id}`, tags: { team_id: [teamId], email_id: [id] } },
    });
  const c1 = { ...deps.counters };
  // The count alone: the one write each applied event adds, to its domain's hour item (the team's
  // mail spread over 50 domains, and one broadcast in ten: its item is a second write).
  const domains = Array.from({ length: 50 }, () => deps.ids.next());
  const broadcastOf = (i: number) => (i % 10 === 0 ? `bench-${i % 30}` : undefined);
  for (const [i, id] of copies.entries())
    await countMetrics(
      deps,
      { team_id: teamId, id, domain_id: domains[i % 50], broadcast_id: broadcastOf(i) },
      { opened: 1 },
    );
  const c2 = { ...deps.counters };
  const per = (a: number, b: number) => ((a - b) / events).toFixed(2);
  const withCount = (c1.ddbWrites - c0.ddbWrites) / events;
  const count = (c2.ddbWrites - c1.ddbWrites) / events;
  // The delivered events' own count: their domain's hour item (and their broadcast's, for broadcast mail).
  const ownCount = model.broadcast_id ? 2 : 1;
  console.log(
    `email metrics       per delivered event: ${withCount.toFixed(2)} DynamoDB writes, ${per(c1.ddbWriteUnits, c0.ddbWriteUnits)} WCU (before the metrics: ${(withCount - ownCount).toFixed(2)} writes); the count itself ${count.toFixed(2)} writes, ${per(c2.ddbWriteUnits, c1.ddbWriteUnits)} WCU with the mail spread over 50 domains and one email in ten a broadcast's (its item is a second write), outside the state change's transaction (${events} events)`,
  );

  for (const days of [7, 30]) {
    const times: number[] = [];
    const r0 = { ...deps.counters };
    const calls = 20;
    for (let i = 0; i < calls; i++) {
      const start = performance.now();
      const out = await resend.emails.metrics({
        startDate: new Date(Date.now() - (days - 1) * 86_400_000).toISOString().slice(0, 10),
        dimensions: ['period'],
      });
      times.push(performance.now() - start);
      if (out.error) throw new Error(`metrics failed: ${out.error.message}`);
    }
    const r1 = { ...deps.counters };
    times.sort((a, b) => a - b);
    console.log(
      `  GET /emails/metrics over ${days} days by day: p50 ${pct(times, 50).toFixed(1)} ms, p99 ${pct(times, 99).toFixed(1)} ms; per call ${((r1.ddbReads - r0.ddbReads) / calls).toFixed(2)} reads (the key's and the rate window's included), ${((r1.ddbItemsRead - r0.ddbItemsRead) / calls).toFixed(1)} items, ${((r1.ddbReadUnits - r0.ddbReadUnits) / calls).toFixed(2)} RCU`,
    );
  }
};
