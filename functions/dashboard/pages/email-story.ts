import { html } from 'hono/html';
import type { EmailItem } from '@mailstack/core/domain/emails/email';
import type { EventRecord } from '@mailstack/core/domain/events/record-event';
import type { ParkedLine } from '@mailstack/core/domain/emails/pipeline/provider-line';
import type { Team } from '@mailstack/core/domain/teams/team';
import { type Html, whenRelative } from '../view.ts';

/**
 * An email's story on its page: each event of its timeline in words with its detail (the bounce's
 * type and the receiving server's reply, the complaint's type, the link clicked, who fetched it and
 * with what), coloured by outcome with the outcome also in words; why a waiting email waits.
 */

type Outcome = 'good' | 'problem' | 'waiting' | 'note';

/** Each event type: what the timeline says, and its outcome (colour and the word beside it). */
const EVENTS: Readonly<Record<string, readonly [string, Outcome]>> = {
  'email.scheduled': ['Scheduled', 'waiting'],
  'email.sent': ['Handed to the provider', 'good'],
  'email.delivered': ['Delivered to the receiving server', 'good'],
  'email.delivery_delayed': ['Delivery delayed: the receiving server asked to try later', 'waiting'],
  'email.bounced': ['Bounced', 'problem'],
  'email.complained': ['Marked as spam by the recipient', 'problem'],
  'email.opened': ['Opened', 'good'],
  'email.clicked': ['Link clicked', 'good'],
  'email.prefetched': ['Fetched by a machine (not counted as opened or clicked)', 'note'],
  'email.failed': ['Failed', 'problem'],
  'email.suppressed': ['Suppressed: not sent to this address', 'problem'],
  'email.canceled': ['Canceled', 'note'],
};

/** The outcome's word, read with its colour. */
const OUTCOME_WORD: Readonly<Record<Outcome, string>> = {
  good: 'OK',
  problem: 'Problem',
  waiting: 'Waiting',
  note: 'Note',
};

/** Why a machine's fetch was not counted as a person's open or click, in words. */
const MACHINE: Readonly<Record<string, string>> = {
  apple_privacy_proxy: "Apple Mail Privacy Protection's proxy loaded the images",
  gmail_image_proxy: "Gmail's image proxy",
  yahoo_image_proxy: "Yahoo Mail's image proxy",
  microsoft_safe_links: 'Microsoft Safe Links checked the link',
  proofpoint: "Proofpoint's link scanner",
  mimecast: "Mimecast's link scanner",
  barracuda: "Barracuda's link scanner",
  bot_user_agent: 'a bot (its user agent says so)',
  implausible_browser: 'a client no person uses (an empty, ancient or self-contradicting user agent)',
  too_soon_after_delivery: 'fetched within seconds of sending, before a person could open it',
  every_link_within_a_second: 'every link of the message fetched within a second (a scanner)',
};

type Fetched = { ipAddress?: string; userAgent?: string; link?: string; reason?: string } | undefined;

/** A link a person clicked: followable only when it is a web address. */
const linkOf = (url: string) =>
  /^https?:\/\//i.test(url)
    ? html`<a href="${url}" rel="noopener noreferrer nofollow">${url}</a>`
    : html`<code>${url}</code>`;

const fetchDetail = (f: Fetched): Html[] => {
  if (!f) return [];
  return [
    ...(f.link ? [html`<dt>Link</dt><dd>${linkOf(f.link)}</dd>`] : []),
    ...(f.reason === 'click'
      ? [html`<dt>Counted from</dt><dd>a click (a click means it was opened)</dd>`]
      : f.reason
        ? [html`<dt>Why not counted</dt><dd>${MACHINE[f.reason] ?? f.reason}</dd>`]
        : []),
    ...(f.userAgent !== undefined
      ? [html`<dt>User agent</dt><dd><code>${f.userAgent || '(none sent)'}</code></dd>`]
      : []),
    ...(f.ipAddress ? [html`<dt>IP address</dt><dd>${f.ipAddress}</dd>`] : []),
  ];
};

/** The detail lines of one event, from what its data holds. */
const detailOf = (ev: EventRecord): Html[] => {
  const d = (ev.data ?? {}) as Record<string, any>;
  const out: Html[] = [];
  if (d.bounce) {
    const kind =
      d.bounce.type === 'Permanent'
        ? 'the address does not take mail; it is now suppressed'
        : d.bounce.type === 'Transient'
          ? 'a temporary refusal; the provider gave up retrying'
          : 'the receiving server did not say why';
    out.push(html`<dt>Bounce type</dt><dd>${d.bounce.type} (${d.bounce.subType}): ${kind}</dd>`);
    const codes: string[] = d.bounce.diagnosticCode?.length ? d.bounce.diagnosticCode : [d.bounce.message];
    for (const code of codes.filter(Boolean))
      out.push(html`<dt>Receiving server said</dt><dd><code>${code}</code></dd>`);
  }
  if (d.complaint?.type) out.push(html`<dt>Complaint type</dt><dd>${d.complaint.type}</dd>`);
  if (d.failed?.reason) out.push(html`<dt>Reason</dt><dd>${d.failed.reason}</dd>`);
  if (d.suppressed)
    out.push(
      html`<dt>Reason</dt><dd>${d.suppressed.message ?? ''}${d.suppressed.reason ? ` (${String(d.suppressed.reason).replace(/_/g, ' ')})` : ''}</dd>`,
    );
  out.push(...fetchDetail(d.click), ...fetchDetail(d.open));
  return out;
};

/** The outcome of an event (a machine's open is a note, a person's a good one). */
const outcomeOf = (ev: EventRecord): readonly [string, Outcome] =>
  EVENTS[ev.type] ?? [ev.type.replace(/^email\./, '').replace(/_/g, ' '), 'note'];

/** One timeline entry: label, outcome word, exact and relative time, the event's type (as webhooks name it), detail. */
const entry = (label: string, outcome: Outcome, at: string, now: number, detail: Html[] = [], type?: string) =>
  html`<li class="ev ${outcome}"><p><span class="ev-outcome">${OUTCOME_WORD[outcome]}</span> <strong>${label}</strong> · ${whenRelative(at, now)}${type ? html` <code class="ev-type" title="The webhook event">${type}</code>` : ''}</p>${detail.length ? html`<dl>${detail}</dl>` : ''}</li>`;

/** The timeline: accepted, then every event, oldest first. */
export const timeline = (e: EmailItem, events: readonly EventRecord[], now: number) =>
  html`<ol class="timeline">${entry('Accepted by the API', 'good', e.created_at, now)}${events.map((ev) => {
    const [label, outcome] = outcomeOf(ev);
    return entry(label, outcome, ev.createdAt, now, detailOf(ev), ev.type);
  })}</ol>`;

/** When a parked email may go (its `DUE#PARKED` entry), if it has one. */
const parkedUntil = (e: EmailItem): string | undefined => {
  const { gsi3pk, gsi3sk } = e as unknown as { gsi3pk?: string; gsi3sk?: string };
  return gsi3pk?.startsWith('DUE#PARKED#') && gsi3sk ? gsi3sk.slice(0, gsi3sk.indexOf('#')) : undefined;
};

/** Why an email that has not left yet waits, in words; undefined once it left (or was canceled). */
export const waitingReason = (
  e: EmailItem,
  team: Team,
  line: ParkedLine | undefined,
  now: number,
): Html | undefined => {
  switch (e.status) {
    case 'held':
      return html`Held for review: this team is new and the message looks like it could imitate a bank, carrier, tax office or security notice. An operator releases it or refuses it; nothing is sent until then.`;
    case 'queued_quota': {
      const until = parkedUntil(e);
      return html`Waiting for the daily sending quota: the plan's emails for today are used up. It goes out when the quota resets${until ? html` (${whenRelative(until, now)})` : ' (at UTC midnight)'}.`;
    }
    case 'scheduled':
      return html`Scheduled: it goes out ${whenRelative(e.scheduled_at, now)}. Cancel or reschedule it below.`;
    case 'queued':
    case 'sending': {
      const why: Html[] = [];
      if (team.sendingPaused)
        why.push(
          html`Sending is paused for this team: its ${team.sendingPaused.metric.replace(/_/g, ' ')} rate of ${(team.sendingPaused.rate * 100).toFixed(2)}% passed the ${(team.sendingPaused.limit * 100).toFixed(2)}% line over ${team.sendingPaused.window_days} days.`,
        );
      if (line)
        why.push(
          html`The provider's line in ${line.region} is paused (${line.reason.replace(/_/g, ' ')}) since ${whenRelative(line.since, now)}: ${line.detail}. It goes out once the provider sends again; nothing fails meanwhile.`,
        );
      if (why.length) return html`${why}`;
      return e.status === 'sending'
        ? html`Being handed to the provider now.`
        : html`In the send queue: it goes out within seconds, at the provider's rate.`;
    }
    default:
      return undefined;
  }
};

/** Where an email came from: its broadcast or automation (linked), else the API. */
export const sourceOf = (e: EmailItem, teamPath: string) => {
  const tag = (name: string) => e.tags.find((t) => t.name === name)?.value;
  if (e.broadcast_id) return html`<a href="${teamPath}/broadcasts/${e.broadcast_id}">a broadcast</a>`;
  const automation = tag('automation_id');
  if (automation && /^[0-9a-f-]{36}$/.test(automation))
    return html`<a href="${teamPath}/automations/${automation}">an automation</a>`;
  if (e.mailbox_sent) return html`a mailbox`;
  return html`the API (or the SMTP relay)`;
};
