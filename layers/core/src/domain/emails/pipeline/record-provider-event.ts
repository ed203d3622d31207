import type { Deps } from '../../../runtime/deps.ts';
import { keys } from '../../../table/keys.ts';
import { getItem, updateItem } from '../../../table/ops.ts';
import type { EventType } from '../../events/record-event.ts';
import { addSuppression } from '../../suppressions/suppression-store.ts';
import type { EmailItem, EmailStatus } from '../email.ts';
import { settleStatusEvent, statusEventAt, writeStatusChange } from './status-event.ts';
import { outcomeCount, regionOutcomeCount, reviewDeliverability } from '../../deliverability/guardrail.ts';
import { providerEventWrites } from '../../broadcasts/recipient-outcome.ts';
import { countMetrics, type Counted } from '../../metrics/count-metrics.ts';
import { keepProviderMessageId } from '../../mailboxes/sent-message-id.ts';

/** An SES event notification (the parts we read). */
export interface SesEvent {
  readonly eventType: string;
  readonly mail: { readonly messageId: string; readonly tags?: Record<string, string[]> };
  readonly bounce?: {
    bounceType: string;
    bounceSubType: string;
    bouncedRecipients?: { emailAddress: string; diagnosticCode?: string }[];
  };
  readonly complaint?: { complainedRecipients?: { emailAddress: string }[]; complaintFeedbackType?: string };
  readonly deliveryDelay?: { delayType?: string };
  readonly reject?: { reason?: string };
  readonly failure?: { errorMessage?: string };
  readonly open?: { ipAddress?: string; userAgent?: string; timestamp?: string };
  readonly click?: { ipAddress?: string; userAgent?: string; timestamp?: string; link?: string };
}

/** How far along an email is; a later provider event never moves it back. */
const RANK: Record<EmailStatus, number> = {
  scheduled: 0,
  queued: 0,
  queued_quota: 0,
  held: 0,
  sending: 1,
  canceled: 1,
  sent: 2,
  delivery_delayed: 3,
  delivered: 4,
  opened: 5,
  clicked: 6,
  failed: 7,
  suppressed: 7,
  bounced: 8,
  complained: 9,
};

const mapping = (
  e: SesEvent,
): { status: EmailStatus; type: EventType; extra?: Record<string, unknown> } | undefined => {
  switch (e.eventType) {
    case 'Send':
      return { status: 'sent', type: 'email.sent' };
    case 'Delivery':
      return { status: 'delivered', type: 'email.delivered' };
    case 'DeliveryDelay':
      return { status: 'delivery_delayed', type: 'email.delivery_delayed' };
    // Any bounce is final: SES publishes a soft (Transient or Undetermined) one only after it gave up
    // retrying. The email is `bounced` either way, its event saying which (`bounce.type`).
    case 'Bounce': {
      const type = e.bounce?.bounceType ?? 'Undetermined';
      const subType = e.bounce?.bounceSubType ?? 'Undetermined';
      return {
        status: 'bounced',
        type: 'email.bounced',
        extra: {
          bounce: {
            // The receiving servers' SMTP replies, one per bounced recipient that has one (the reference's `diagnosticCode`).
            diagnosticCode: (e.bounce?.bouncedRecipients ?? []).flatMap((r) =>
              r.diagnosticCode ? [r.diagnosticCode] : [],
            ),
            message: e.bounce?.bouncedRecipients?.[0]?.diagnosticCode ?? `${type} bounce (${subType})`,
            type,
            subType,
          },
        },
      };
    }
    // The feedback report's type (`abuse`, `not-spam`, …), when the mailbox provider gave one.
    case 'Complaint':
      return {
        status: 'complained',
        type: 'email.complained',
        ...(e.complaint?.complaintFeedbackType
          ? { extra: { complaint: { type: e.complaint.complaintFeedbackType } } }
          : {}),
      };
    case 'Reject':
      return {
        status: 'failed',
        type: 'email.failed',
        extra: { failed: { reason: e.reject?.reason ?? 'rejected by the provider' } },
      };
    case 'Rendering Failure':
    case 'RenderingFailure':
      return {
        status: 'failed',
        type: 'email.failed',
        extra: { failed: { reason: e.failure?.errorMessage ?? 'rendering failure' } },
      };
    // 'Open' and 'Click' are not published (the service tracks those itself, with machine opens
    // told apart); one that arrives anyway is ignored rather than counted twice.
    default:
      return undefined;
  }
};

/** The email metric an applied provider event counts (a bounce by its kind; `Send` counts through `leftHere`). */
const metricOf = (e: SesEvent): Counted | undefined => {
  switch (e.eventType) {
    case 'Delivery':
      return 'delivered';
    case 'DeliveryDelay':
      return 'delivery_delayed';
    case 'Bounce':
      return e.bounce?.bounceType === 'Permanent'
        ? 'bounced_permanent'
        : e.bounce?.bounceType === 'Transient'
          ? 'bounced_transient'
          : 'bounced_undetermined';
    case 'Complaint':
      return 'complained';
    case 'Reject':
    case 'Rendering Failure':
    case 'RenderingFailure':
      return 'failed';
    default:
      return undefined;
  }
};

/** A provider event is applied again on the email's new state at most this many times. */
const MAX_APPLY_ATTEMPTS = 5;

/**
 * Applies one SES event to its email (found through the tags we sent, so only the owning team's
 * email moves): status and last_event forward only, an event record per change, and a
 * suppression for a hard bounce or a complaint. A hard bounce or complaint is counted for the
 * deliverability guardrail in the same transaction as the status change, so a replayed or
 * retried event counts once; the email metrics count the change once it is in (a replay, which
 * changes nothing, counts nothing).
 */
export const recordProviderEvent = async (deps: Deps, event: SesEvent): Promise<'applied' | 'ignored'> => {
  const teamId = event.mail.tags?.team_id?.[0];
  const emailId = event.mail.tags?.email_id?.[0];
  const change = mapping(event);
  deps.logger.info('provider event', {
    event_type: event.eventType,
    email_id: emailId,
    team_id: teamId,
    provider_message_id: event.mail.messageId,
  });
  deps.metrics.addMetric('EmailsProviderEvent', 'Count', 1);
  if (!teamId || !emailId || !change) return 'ignored';

  // Only a hard bounce suppresses the address and counts against the team's bounce rate.
  const hardBounce = change.type === 'email.bounced' && event.bounce?.bounceType === 'Permanent';
  if (hardBounce) {
    for (const r of event.bounce?.bouncedRecipients ?? [])
      await addSuppression(deps, { teamId, email: r.emailAddress, origin: 'bounce', source: null, sourceId: emailId });
  }
  if (change.type === 'email.complained') {
    for (const r of event.complaint?.complainedRecipients ?? [])
      await addSuppression(deps, {
        teamId,
        email: r.emailAddress,
        origin: 'complaint',
        source: null,
        sourceId: emailId,
      });
  }
  const outcome: 'bounced' | 'complained' | undefined = hardBounce
    ? 'bounced'
    : change.type === 'email.complained'
      ? 'complained'
      : undefined;
  for (let attempt = 0; attempt < MAX_APPLY_ATTEMPTS; attempt++) {
    const email = (await getItem(deps, keys.email.item(teamId, emailId))) as EmailItem | undefined;
    if (!email) return 'ignored';
    if (RANK[change.status] <= RANK[email.status]) {
      // This change made already (this message's earlier run, or the send worker's own `sent`):
      // its event, if the run that made it died before storing it.
      if (email.status === change.status) await settleStatusEvent(deps, email, change.type, change.extra);
      return 'ignored';
    }
    // The provider's event got there before the send worker recorded `sent`: the send counts here.
    const leftHere = RANK[email.status] < RANK.sent && change.status !== 'failed';
    const now = new Date(deps.clock.now()).toISOString();
    // The Message-ID the provider wrote in place of ours, when the send worker did not record it.
    const wire = deps.mail.messageIdOf?.(event.mail.messageId, email.region);
    const written = await writeStatusChange(
      deps,
      wire ? { ...email, message_id: wire } : email,
      {
        key: keys.email.item(teamId, emailId),
        change: {
          set: {
            status: change.status,
            updated_at: now,
            provider_message_id: event.mail.messageId,
            ...(wire ? { message_id: wire } : {}),
          },
          remove: [...keys.email.waitingAttributes, 'claim_token', 'claimed_until'],
        },
        when: { attr: 'status', eq: email.status },
      },
      { type: change.type, at: statusEventAt(deps, now), ...(change.extra ? { extra: change.extra } : {}) },
      [
        ...providerEventWrites(deps, email, change.status),
        ...(outcome || leftHere
          ? [
              outcomeCount(
                deps,
                teamId,
                email.id,
                ...(leftHere ? ['sent' as const] : []),
                ...(outcome ? [outcome] : []),
              ),
            ]
          : []),
      ],
    );
    // The email moved meanwhile (another event or the worker): apply this one again on the new state.
    if (!written) continue;
    if (wire && wire !== email.message_id) await keepProviderMessageId(deps, email, wire);
    // The region's platform counts, once the change is in (outside the transaction: one item every team's events share).
    if (outcome || leftHere) {
      const count = regionOutcomeCount(
        deps,
        email.region,
        email.id,
        ...(leftHere ? ['sent' as const] : []),
        ...(outcome ? [outcome] : []),
      );
      await updateItem(deps, count.update, count.change);
    }
    // A complaint that got there before the delivery stands for it too (the delivery, arriving later, moves nothing).
    const deliveredHere = change.status === 'complained' && RANK[email.status] < RANK.delivered;
    await countMetrics(deps, email, {
      ...(leftHere ? { sent: 1 } : {}),
      ...(deliveredHere ? { delivered: 1 } : {}),
      ...(metricOf(event) ? { [metricOf(event)!]: 1 } : {}),
    });
    if (outcome) await reviewDeliverability(deps, teamId);
    return 'applied';
  }
  throw new Error(
    `provider event ${event.eventType} for email ${emailId}: the email kept moving over ${MAX_APPLY_ATTEMPTS} attempts; SNS will deliver it again`,
  );
};
