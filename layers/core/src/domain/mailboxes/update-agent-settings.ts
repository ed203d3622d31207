import type { AgentSettings } from './inbox-agent.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { updateItem } from '../../table/ops.ts';
import type { Mailbox } from './mailbox.ts';

/** Changes the settings given (null clears instructions or tone); the others stay. */
export const updateAgentSettings = async (deps: Deps, m: Mailbox, change: Partial<AgentSettings>): Promise<void> => {
  const set = Object.fromEntries(
    Object.entries({
      instructions: change.instructions,
      tone: change.tone,
      actions: change.actions ? [...new Set(change.actions)] : undefined,
    }).filter(([, value]) => value !== undefined),
  );
  await updateItem(deps, keys.mailbox.agentSettings(m.teamId, m.id), {
    set: { ...set, type: 'mailbox_agent_settings', updated_at: new Date(deps.clock.now()).toISOString() },
  });
};
