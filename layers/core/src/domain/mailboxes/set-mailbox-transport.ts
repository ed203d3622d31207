import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { putItem } from '../../table/ops.ts';

/**
 * The operator turns mailbox sending on or off, for every team or for one (off: sends answer 503
 * and drafts are kept).
 */
export const setMailboxTransport = async (deps: Deps, enabled: boolean, teamId?: string): Promise<void> => {
  await putItem(deps, {
    ...keys.mailbox.transport(teamId ?? '*'),
    type: 'mailbox_transport',
    enabled,
    changed_at: new Date(deps.clock.now()).toISOString(),
  });
};
