import { html, raw } from 'hono/html';
import { WEBHOOK_EVENT_TYPES } from '@mailstack/core/domain/webhooks/webhook';

/**
 * The webhook form's event picker: a checkbox per event type the service records (the list the
 * API checks subscriptions against), grouped by resource (`email.*`, `contact.*`, ...), with an
 * "all events" box and an "every <resource> event" box per group. The server reads the boxes
 * (`all_events`, `group:<resource>`, `event:<type>`), so the form works without the script, which
 * only ticks the boxes a group box stands for.
 */

/** The resource of an event type: what comes before its first dot. */
const resourceOf = (type: string): string => type.slice(0, type.indexOf('.'));

/** The event types by resource, in the order the service lists them. */
const GROUPS: readonly (readonly [string, readonly string[]])[] = [
  ...WEBHOOK_EVENT_TYPES.reduce((groups, type) => {
    const r = resourceOf(type);
    groups.set(r, [...(groups.get(r) ?? []), type]);
    return groups;
  }, new Map<string, string[]>()),
];

/** The event types a submitted form chose: every one with "all events", each group's with its box, then each box ticked. */
export const eventsChosen = (form: Readonly<Record<string, string>>): string[] => {
  if (form.all_events === 'on') return [...WEBHOOK_EVENT_TYPES];
  const chosen = new Set<string>();
  for (const [resource, types] of GROUPS) if (form[`group:${resource}`] === 'on') for (const t of types) chosen.add(t);
  for (const [name, value] of Object.entries(form))
    if (name.startsWith('event:') && value === 'on') chosen.add(name.slice('event:'.length));
  // In the service's order: the endpoint lists its events as the API then answers them.
  return [
    ...WEBHOOK_EVENT_TYPES.filter((t) => chosen.has(t)),
    ...[...chosen].filter((t) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(t)),
  ];
};

const checked = (on: boolean) => (on ? raw(' checked') : '');

/** The picker, with `selected` ticked (a form shown again keeps what was chosen). */
export const eventPicker = (id: string, selected: readonly string[]) => {
  const has = new Set(selected);
  const all = WEBHOOK_EVENT_TYPES.every((t) => has.has(t));
  return html`<fieldset class="events" id="${id}" data-events><legend>Events</legend>
<label class="check all"><input type="checkbox" name="all_events" data-check="all"${checked(all)}> All events (${WEBHOOK_EVENT_TYPES.length})</label>
<div class="event-groups">${GROUPS.map(([resource, types]) => {
    const whole = types.every((t) => has.has(t));
    return html`<fieldset class="event-group"><legend>${resource}</legend>
<label class="check group"><input type="checkbox" name="group:${resource}" data-check="group" data-group="${resource}"${checked(whole)}> Every ${resource} event</label>
<ul>${types.map((t) => html`<li><label class="check"><input type="checkbox" name="event:${t}" data-group="${resource}"${checked(has.has(t))}> <code>${t}</code></label></li>`)}</ul></fieldset>`;
  })}</div></fieldset>`;
};

/** An endpoint's events in a few words: "All events", or each whole group as "every <resource> event" and the rest by name. */
export const eventSummary = (events: readonly string[]): string => {
  const has = new Set(events);
  if (WEBHOOK_EVENT_TYPES.every((t) => has.has(t))) return `All events (${WEBHOOK_EVENT_TYPES.length})`;
  const parts: string[] = [];
  for (const [resource, types] of GROUPS) {
    if (types.length > 1 && types.every((t) => has.has(t))) parts.push(`every ${resource} event`);
    else parts.push(...types.filter((t) => has.has(t)));
  }
  return parts.join(', ');
};
