import type { DeliveryObserver } from './deliver.ts';

/**
 * What the delivery engine tells team owners about an endpoint (spec §6 rule 6). For now the
 * notice is logged for the operator; emailing owners needs owner addresses on the team record.
 */
export const ownerNotices: DeliveryObserver = {
  async endpointChanged(deps, w, change) {
    deps.logger.warn(change === 'disabled'
      ? `webhook endpoint ${w.id} of team ${w.teamId} disabled after ${w.consecutiveExhausted} consecutive exhausted deliveries`
      : `webhook endpoint ${w.id} of team ${w.teamId}: the last ten settled deliveries all exhausted`);
  },
};
