import { html } from 'hono/html';
import type { Graph, Step } from '@mailstack/core/domain/automations/graph';
import type { Html } from '../view.ts';

/** How many runs ended a step each way. */
type Counts = { completed: number; skipped: number; failed: number };

/** What a step does, in a line. */
export const describeStep = (type: string, c: Record<string, any>): string => {
  switch (type) {
    case 'trigger':
      return `when ${c.event_name} is sent`;
    case 'send_email':
      return `send template ${c.template?.id}${c.subject ? ` ("${c.subject}")` : ''}`;
    case 'delay':
      return `wait ${c.duration}`;
    case 'wait_for_event':
      return `wait for ${c.event_name}${c.timeout ? `, at most ${c.timeout}` : ''}`;
    case 'condition':
      return c.type === 'rule'
        ? `if ${c.field} ${c.operator}${c.value === undefined ? '' : ` ${JSON.stringify(c.value)}`}`
        : `if ${c.type} of ${c.rules?.length} rules`;
    case 'contact_update':
      return `update the contact (${Object.keys(c).join(', ')})`;
    case 'contact_delete':
      return 'delete the contact';
    case 'add_to_segment':
      return `add to segment ${c.segment_id}`;
    default:
      return type;
  }
};

/** A step type in words. */
export const STEP_WORDS: Readonly<Record<string, string>> = {
  trigger: 'Trigger',
  send_email: 'Send email',
  delay: 'Delay',
  wait_for_event: 'Wait for event',
  condition: 'Condition',
  contact_update: 'Update contact',
  contact_delete: 'Delete contact',
  add_to_segment: 'Add to segment',
};

/** The words on a branch, by connection type (the default path has none). */
const BRANCH_WORDS: Readonly<Record<string, string>> = {
  condition_met: 'if met',
  condition_not_met: 'if not met',
  event_received: 'event received',
  timeout: 'timed out',
};

const anchor = (key: string) => `step-${key.replace(/[^A-Za-z0-9_-]/g, '_')}`;

/**
 * An automation's graph drawn as a flow from its trigger, server-rendered as nested lists: each
 * step a box (its type, key, what it does, and how many runs completed, skipped or failed it),
 * one path down, branches side by side with their labels; a step reached a second time (a loop, or
 * branches joining) is a link back to where it is drawn.
 */
export const flowOf = (graph: Graph, counts: ReadonlyMap<string, Counts>): Html => {
  const steps = new Map(graph.steps.map((s) => [s.key, s]));
  const drawn = new Set<string>();
  const box = (s: Step) => {
    const n = counts.get(s.key) ?? { completed: 0, skipped: 0, failed: 0 };
    return html`<div class="step-box ${s.type}" id="${anchor(s.key)}"><span class="step-type">${STEP_WORDS[s.type] ?? s.type}</span> <code class="step-key">${s.key}</code>
<span class="step-does">${describeStep(s.type, s.config)}</span>
${s.type === 'trigger' ? '' : html`<span class="step-counts">${n.completed} completed · ${n.skipped} skipped · ${n.failed} failed</span>`}</div>`;
  };
  const path = (key: string): Html => {
    const s = steps.get(key);
    if (!s) return html``;
    if (drawn.has(key))
      return html`<li class="flow-step"><a class="step-again" href="#${anchor(key)}">continues at <code class="step-key">${key}</code></a></li>`;
    drawn.add(key);
    const out = graph.connections.filter((c) => c.from === key);
    const next =
      out.length === 0
        ? html`<li class="flow-end">end</li>`
        : out.length === 1 && out[0]!.type === 'default'
          ? path(out[0]!.to)
          : html`<li class="flow-branches"><ul class="branches">${out.map(
              (c) =>
                html`<li class="branch"><span class="branch-label">${BRANCH_WORDS[c.type] ?? c.type}</span><ul class="flow">${path(c.to)}</ul></li>`,
            )}</ul></li>`;
    return html`<li class="flow-step">${box(s)}</li>${next}`;
  };
  const trigger = graph.steps.find((s) => s.type === 'trigger');
  return html`<div class="flow-wrap"><ul class="flow" aria-label="Steps as a flow">${trigger ? path(trigger.key) : ''}</ul></div>`;
};
