import type { Deps } from '../../runtime/deps.ts';
import { trackingStore, type StoredClick } from '../../table/tracking.ts';
import { recordEvent } from '../events/record-event.ts';
import { emailEventData } from '../emails/pipeline/email-event-data.ts';
import { broadcastClicked, broadcastOpened } from '../broadcasts/engagement.ts';
import { ALL_LINKS_WINDOW_MS, classifyFetch } from './classify.ts';
import type { TrackingClaims } from './tokens.ts';
import { countMetrics } from '../metrics/count-metrics.ts';

/** Who fetched: the request's address and user agent. */
export interface Requester {
  readonly ipAddress: string;
  readonly userAgent: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A pixel load: a person's records email.opened (and last_event opened); a machine's (proxy,
 * prefetcher, scanner, implausible browser, too soon after sending) records email.prefetched
 * with data.open.reason. Nothing is recorded for an email that no longer exists.
 */
export const recordOpen = async (deps: Deps, claims: TrackingClaims, who: Requester): Promise<void> => {
  const e = await trackingStore.email(deps, claims.teamId, claims.emailId);
  if (!e) return;
  const at = deps.clock.now();
  const open = { ipAddress: who.ipAddress, userAgent: who.userAgent, timestamp: iso(at) };
  const reason = classifyFetch({ kind: 'open', ...who, at, sentAt: e.sent_at ? Date.parse(e.sent_at) : null });
  if (reason) {
    await recordEvent(deps, e.team_id, 'email.prefetched', { ...emailEventData(e), open: { ...open, reason } });
    return;
  }
  const first = await trackingStore.firstHumanOpen(deps, e);
  await trackingStore.engage(deps, e, 'opened');
  await countMetrics(deps, e, { opened: 1, unique_opened: first ? 1 : 0 });
  await broadcastOpened(deps, e);
  await recordEvent(deps, e.team_id, 'email.opened', { ...emailEventData(e), open });
};

const clickData = (c: StoredClick) => ({
  ipAddress: c.ipAddress,
  link: c.link,
  timestamp: c.timestamp,
  userAgent: c.userAgent,
});

/**
 * A link fetch. A machine's records email.prefetched with data.click.reason. A fetch of a
 * different link of the same message within a second makes both machine fetches: a click
 * already announced as email.clicked is re-recorded as email.prefetched with the same
 * data.click.timestamp, which retracts it (and the open with reason `click` stamped one
 * millisecond earlier). A person's click on a message without a recorded open also records
 * that open, reason `click`.
 */
export const recordClick = async (deps: Deps, claims: TrackingClaims, who: Requester): Promise<void> => {
  const e = await trackingStore.email(deps, claims.teamId, claims.emailId);
  if (!e) return;
  const at = deps.clock.now();
  const click: StoredClick = {
    id: deps.ids.next(),
    at,
    link: claims.url!,
    ipAddress: who.ipAddress,
    userAgent: who.userAgent,
    timestamp: iso(at),
    human: true,
    announced: false,
  };
  const base = emailEventData(e);
  // Stored first, then the window read: two fetches racing each other both see each other.
  await trackingStore.addClick(deps, e, click);
  const neighbours = (
    await trackingStore.clicksBetween(deps, e, at - ALL_LINKS_WINDOW_MS, at + ALL_LINKS_WINDOW_MS)
  ).filter((c) => c.id !== click.id && c.link !== click.link);
  const reason =
    classifyFetch({ kind: 'click', ...who, at, sentAt: e.sent_at ? Date.parse(e.sent_at) : null }) ??
    (neighbours.length > 0 ? 'every_link_within_a_second' : undefined);
  if (reason) {
    await trackingStore.reclassify(deps, e, click);
    await recordEvent(deps, e.team_id, 'email.prefetched', { ...base, click: { ...clickData(click), reason } });
    if (neighbours.length > 0) {
      for (const n of neighbours) {
        const before = await trackingStore.reclassify(deps, e, n);
        if (before?.announced) {
          await broadcastClicked(deps, e, before.link, -1);
          await countMetrics(deps, e, { clicked: -1 });
          await recordEvent(deps, e.team_id, 'email.prefetched', {
            ...base,
            click: { ...clickData(before), reason: 'every_link_within_a_second' },
          });
        }
      }
    }
    return;
  }
  if (!(await trackingStore.announce(deps, e, click))) {
    // A neighbour reclassified this click between the store and now.
    await recordEvent(deps, e.team_id, 'email.prefetched', {
      ...base,
      click: { ...clickData(click), reason: 'every_link_within_a_second' },
    });
    return;
  }
  const firstOpen = await trackingStore.firstHumanOpen(deps, e);
  const firstClick = await trackingStore.firstHumanClick(deps, e);
  await countMetrics(deps, e, {
    clicked: 1,
    unique_clicked: firstClick ? 1 : 0,
    opened: firstOpen ? 1 : 0,
    unique_opened: firstOpen ? 1 : 0,
  });
  if (firstOpen) {
    await broadcastOpened(deps, e);
    await recordEvent(deps, e.team_id, 'email.opened', {
      ...base,
      open: { ipAddress: who.ipAddress, userAgent: who.userAgent, timestamp: iso(at - 1), reason: 'click' },
    });
  }
  await trackingStore.engage(deps, e, 'clicked');
  await broadcastClicked(deps, e, click.link, 1);
  await recordEvent(deps, e.team_id, 'email.clicked', { ...base, click: clickData(click) });
};
