import type { Deps } from '../../runtime/deps.ts';
import { webhookStore, type WebhookRecord } from '../../table/webhooks.ts';
import { getTeam } from '../teams/team.ts';
import { ownerAddresses } from '../people/membership.ts';
import { sendSystemEmail } from '../people/system-mail.ts';
import type { DeliveryObserver, EndpointChange } from './deliver.ts';

/** A notice of a kind that can repeat is sent at most once a day per endpoint. */
const REPEAT_AFTER_MS = 86_400_000;

const subjectOf = (w: WebhookRecord, change: EndpointChange): string =>
  ({
    disabled: `Webhook endpoint disabled: ${w.endpoint}`,
    failing: `Webhook endpoint failing: ${w.endpoint}`,
    backlog: `Webhook deliveries waiting over six hours: ${w.endpoint}`,
  })[change];

const bodyOf = (w: WebhookRecord, change: EndpointChange, dashboardUrl: string): string =>
  [
    {
      disabled: `After ${w.consecutiveExhausted} consecutive deliveries that exhausted their retries, the webhook endpoint ${w.endpoint} (${w.id}) was disabled. Events recorded while it is disabled are not delivered later. Fix the receiver, then re-enable it from its page in the dashboard (${dashboardUrl}/t/${w.teamId}/webhooks/${w.id}) or with PATCH /webhooks/${w.id} and {"status": "enabled"}.`,
      failing: `The last ten settled deliveries to the webhook endpoint ${w.endpoint} (${w.id}) all exhausted their retries (24 hours each). After 20 in a row the endpoint is disabled. GET /webhooks/${w.id}/events shows each delivery and its attempts.`,
      backlog: `Deliveries to the webhook endpoint ${w.endpoint} (${w.id}) have been waiting for more than six hours. GET /webhooks/${w.id}/events shows what is pending and why the attempts failed.`,
    }[change],
    '',
    'This notice comes from the email service your team uses; it is sent at most once a day per endpoint and kind (a disable, once each time).',
  ].join('\n');

/**
 * Who hears of a team's trouble: the people with the owner role (the dashboard's members), plus
 * any further addresses the operator set on the team (`npm run admin -- teams owners`, for teams
 * run without dashboard people).
 */
const noticeRecipients = async (deps: Deps, teamId: string): Promise<string[]> => {
  const [team, owners] = await Promise.all([getTeam(deps, teamId), ownerAddresses(deps, teamId)]);
  const seen = new Map<string, string>();
  for (const address of [...owners, ...(team?.ownerEmails ?? [])])
    if (!seen.has(address.toLowerCase())) seen.set(address.toLowerCase(), address);
  return [...seen.values()];
};

/**
 * Emails a team's owners about one of its endpoints (spec §6 rule 6) as the service's own mail:
 * the system team and sender the dashboard's mail uses, through the send pipeline. A notice that
 * cannot go out is logged, never thrown: delivery bookkeeping does not depend on it.
 */
export const notifyOwners = async (
  deps: Deps,
  w: WebhookRecord,
  change: EndpointChange,
): Promise<'sent' | 'logged' | 'skipped'> => {
  deps.logger.warn(`webhook endpoint ${w.id} of team ${w.teamId}: ${subjectOf(w, change)}`);
  // Repeating kinds once a day per endpoint; a disable happens once per transition already.
  if (
    change !== 'disabled' &&
    !(await webhookStore.claimNotice(deps, w.teamId, w.id, change, deps.clock.now(), REPEAT_AFTER_MS))
  )
    return 'skipped';
  const to = await noticeRecipients(deps, w.teamId);
  if (to.length === 0) return 'logged';
  try {
    await sendSystemEmail(deps, {
      to,
      subject: subjectOf(w, change),
      text: bodyOf(w, change, deps.config.DASHBOARD_URL),
      tags: [{ name: 'notice', value: `webhook_${change}` }],
    });
    return 'sent';
  } catch (error) {
    deps.logger.error(`owner notice for webhook endpoint ${w.id} not sent`, error as Error);
    return 'logged';
  }
};

/** What the delivery engine tells team owners about an endpoint. */
export const ownerNotices: DeliveryObserver = {
  async endpointChanged(deps, w, change) {
    await notifyOwners(deps, w, change);
  },
};
