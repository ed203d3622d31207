import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem } from '../../table/ops.ts';
import type { Mailbox } from './mailbox.ts';

/**
 * What a mailbox's agents are told (the SDK inbox's `agent` settings): the owner's instructions,
 * a tone and the actions they may take, stored per mailbox (its `AGENT` row). The service runs no
 * model: the mailbox's MCP endpoint gives these to the agent that connects, as its server
 * instructions, and the agent acts on them.
 */

/** The reference SDK's tones and actions (INBOX_AGENT_TONES, INBOX_AGENT_ACTIONS). */
export const AGENT_TONES = [
  'concise_professional',
  'concise_casual',
  'expanded_professional',
  'expanded_casual',
] as const;

export const AGENT_ACTIONS = [
  'draft_reply',
  'forward_thread',
  'add_labels',
  'assign_thread',
  'mark_as_spam',
  'archive',
  'move_to_trash',
] as const;

/** The instructions' longest length (characters). */
export const MAX_AGENT_INSTRUCTIONS = 10_000;

export interface AgentSettings {
  readonly instructions: string | null;
  readonly tone: (typeof AGENT_TONES)[number] | null;
  readonly actions: readonly (typeof AGENT_ACTIONS)[number][];
}

const agentSettingsFromItem = (i: Record<string, any> | undefined): AgentSettings => ({
  instructions: i?.instructions ?? null,
  tone: i?.tone ?? null,
  actions: i?.actions ?? [],
});

/** A mailbox's agent settings (none set: no instructions, no tone, no actions). */
export const getAgentSettings = async (deps: Deps, m: Mailbox): Promise<AgentSettings> =>
  agentSettingsFromItem(await getItem(deps, keys.mailbox.agentSettings(m.teamId, m.id)));

/** The settings as an agent reads them (the mailbox MCP endpoint's server instructions); empty when none are set. */
export const agentBrief = (s: AgentSettings): string =>
  [
    s.instructions ? `The mailbox owner's instructions for its agents:\n${s.instructions}` : '',
    s.tone ? `Write in this tone: ${s.tone.replace('_', ', ')}.` : '',
    s.actions.length ? `Actions the owner allows: ${s.actions.join(', ')}.` : '',
  ]
    .filter(Boolean)
    .join('\n');
