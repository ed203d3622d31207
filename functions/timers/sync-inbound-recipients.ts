import { getDeps } from '@mailstack/core/runtime/deps';
import { syncInboundRecipients } from '@mailstack/core/domain/domains/inbound-recipients';

/**
 * Every 15 minutes: writes the held domain names into the inbound receipt rule, so a rule a
 * deploy wrote anew (or an edit made outside the stack) names them again without waiting for
 * the next domain change. `rule`: whether the deployment keeps one (unset locally without it).
 */
export const handler = async (): Promise<{ rule: boolean }> => {
  const deps = getDeps();
  await syncInboundRecipients(deps);
  return { rule: deps.inboundRecipients !== undefined };
};
