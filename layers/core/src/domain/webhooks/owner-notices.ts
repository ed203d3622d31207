import type { Deps } from '../../runtime/deps.ts';
import { webhookStore, type WebhookRecord } from '../../table/webhooks.ts';
import { getTeam } from '../teams/team.ts';
import { sendEmail } from '../emails/send-emails.ts';
import type { Caller } from '../caller.ts';
import type { DeliveryObserver, EndpointChange } from './deliver.ts';

/** A notice of a kind that can repeat is sent at most once a day per endpoint. */
const REPEAT_AFTER_MS = 86_400_000;

const subjectOf = (w: WebhookRecord, change: EndpointChange): string => ({
  disabled: `Webhook endpoint disabled: ${w.endpoint}`,
  failing: `Webhook endpoint failing: ${w.endpoint}`,
  backlog: `Webhook deliveries waiting over six hours: ${w.endpoint}`,
})[change];

const bodyOf = (w: WebhookRecord, change: EndpointChange): string => [
  {
    disabled: `After ${w.consecutiveExhausted} consecutive deliveries that exhausted their retries, the webhook endpoint ${w.endpoint} (${w.id}) was disabled. Events recorded while it is disabled are not delivered later. Fix the receiver, then re-enable it: PATCH /webhooks/${w.id} with {"status": "enabled"}.`,
    failing: `The last ten settled deliveries to the webhook endpoint ${w.endpoint} (${w.id}) all exhausted their retries (24 hours each). After 20 in a row the endpoint is disabled. GET /webhooks/${w.id}/events shows each delivery and its attempts.`,
    backlog: `Deliveries to the webhook endpoint ${w.endpoint} (${w.id}) have been waiting for more than six hours. GET /webhooks/${w.id}/events shows what is pending and why the attempts failed.`,
  }[change],
  '',
  'This notice comes from the email service your team uses; it is sent at most once a day per endpoint and kind (a disable, once each time).',
].join('\n');

/**
 * Emails a team's owners about one of its endpoints (spec §6 rule 6) through the service's own
 * send pipeline, as the configured system team from its sender. A notice that cannot go out is
 * logged, never thrown: delivery bookkeeping does not depend on it.
 */
export const notifyOwners = async (deps: Deps, w: WebhookRecord, change: EndpointChange): Promise<'sent' | 'logged' | 'skipped'> => {
  deps.logger.warn(`webhook endpoint ${w.id} of team ${w.teamId}: ${subjectOf(w, change)}`);
  // Repeating kinds once a day per endpoint; a disable happens once per transition already.
  if (change !== 'disabled' && !(await webhookStore.claimNotice(deps, w.teamId, w.id, change, deps.clock.now(), REPEAT_AFTER_MS))) return 'skipped';
  const { SYSTEM_TEAM_ID: systemTeamId, SYSTEM_SENDER: from } = deps.config;
  const [team, system] = await Promise.all([getTeam(deps, w.teamId), systemTeamId ? getTeam(deps, systemTeamId) : undefined]);
  if (!team || team.ownerEmails.length === 0 || !system || !from) return 'logged';
  const caller: Caller = { team: system, keyId: 'system-notices', scope: 'full_access', domainId: null };
  try {
    await sendEmail(deps, caller, { from, to: [...team.ownerEmails], subject: subjectOf(w, change), text: bodyOf(w, change), tags: [{ name: 'notice', value: `webhook_${change}` }] });
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
