import { validationError } from '../../errors/api-error.ts';
import { MAX_AUTOMATION_DELAY_DAYS } from '../../limits.ts';
import { RESERVED_EVENT_PREFIX, type ConnectionType, type StepType } from './vocabulary.ts';

/** A step of an automation as stored and run (the wire's snake_case config). */
export interface Step {
  readonly key: string;
  readonly type: StepType;
  readonly config: Readonly<Record<string, any>>;
}

/** A connection between two steps. */
interface Connection {
  readonly from: string;
  readonly to: string;
  readonly type: ConnectionType;
}

/** An automation's graph: its steps and the connections between them. */
export interface Graph {
  readonly steps: readonly Step[];
  readonly connections: readonly Connection[];
}

/** The connection types leaving each step type (a contact_delete step ends its path). */
const OUTGOING: Readonly<Record<StepType, readonly ConnectionType[]>> = {
  trigger: ['default'],
  delay: ['default'],
  send_email: ['default'],
  contact_update: ['default'],
  add_to_segment: ['default'],
  contact_delete: [],
  condition: ['condition_met', 'condition_not_met'],
  wait_for_event: ['event_received', 'timeout'],
};

const UNITS: Readonly<Record<string, number>> = {
  second: 1_000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
};
const SHORT: Readonly<Record<string, string>> = { s: 'second', m: 'minute', h: 'hour', d: 'day', w: 'week' };

/** A human-readable duration ("30 minutes", "2 days", "1 hour", "90s") in milliseconds; undefined when unreadable. */
export const parseDuration = (text: string): number | undefined => {
  const m = /^\s*(\d+)\s*([a-z]+?)s?\s*$/i.exec(text);
  if (!m) return undefined;
  const word = m[2]!.toLowerCase();
  const unit = UNITS[SHORT[word] ?? (word === 'min' ? 'minute' : word === 'hr' ? 'hour' : word)];
  return unit === undefined ? undefined : Number(m[1]) * unit;
};

const MAX_DELAY_MS = MAX_AUTOMATION_DELAY_DAYS * 86_400_000;

const fail = (key: string, message: string) => validationError(`Step \`${key}\`: ${message}`);

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

const checkDuration = (key: string, field: string, value: unknown): void => {
  const ms = typeof value === 'string' ? parseDuration(value) : undefined;
  if (ms === undefined || ms <= 0)
    throw fail(key, `\`config.${field}\` must be a duration such as "30 minutes", "2 days" or "1 hour".`);
  if (ms > MAX_DELAY_MS) throw fail(key, `\`config.${field}\` may be at most ${MAX_AUTOMATION_DELAY_DAYS} days.`);
};

const checkEventName = (key: string, value: unknown): void => {
  if (typeof value !== 'string' || value.length === 0 || value.length > 100)
    throw fail(key, '`config.event_name` must name an event (1 to 100 characters).');
  if (value.startsWith(RESERVED_EVENT_PREFIX))
    throw fail(key, `\`config.event_name\` may not start with \`${RESERVED_EVENT_PREFIX}\` (reserved).`);
};

const OPERATORS: Readonly<Record<string, 'any' | 'number' | 'string' | 'none'>> = {
  eq: 'any',
  neq: 'any',
  gt: 'number',
  gte: 'number',
  lt: 'number',
  lte: 'number',
  contains: 'string',
  starts_with: 'string',
  ends_with: 'string',
  exists: 'none',
  is_empty: 'none',
};

/**
 * The fields a rule reads: the contact's (`contact.first_name`, `contact.properties.plan`), the
 * triggering or awaited event's payload (`event.amount`), and what became of the last email the
 * run sent (`email.opened`, `email.clicked`, `email.delivered`, `email.bounced`: true or false).
 */
const FIELD = /^(contact|event)\.[\w.-]+$|^email\.(opened|clicked|delivered|bounced)$/;

/** Checks a condition rule tree (the SDK's ConditionRule), naming the step and the path of a bad node. */
const checkRule = (key: string, rule: unknown, path: string, depth = 0): void => {
  if (depth > 8) throw fail(key, `\`${path}\` nests rules deeper than 8 levels.`);
  if (!isObject(rule)) throw fail(key, `\`${path}\` must be a rule object.`);
  if (rule.type === 'and' || rule.type === 'or') {
    if (!Array.isArray(rule.rules) || rule.rules.length === 0)
      throw fail(key, `\`${path}.rules\` must be a non-empty array of rules.`);
    for (const [i, r] of rule.rules.entries()) checkRule(key, r, `${path}.rules[${i}]`, depth + 1);
    return;
  }
  if (rule.type !== 'rule') throw fail(key, `\`${path}.type\` must be \`rule\`, \`and\` or \`or\`.`);
  if (typeof rule.field !== 'string' || !FIELD.test(rule.field))
    throw fail(
      key,
      `\`${path}.field\` must name a contact or event field, such as \`contact.first_name\`, \`contact.properties.plan\`, \`event.amount\` or \`contact.email.opened\`.`,
    );
  const kind = typeof rule.operator === 'string' ? OPERATORS[rule.operator] : undefined;
  if (!kind) throw fail(key, `\`${path}.operator\` must be one of ${Object.keys(OPERATORS).join(', ')}.`);
  const value = rule.value;
  const ok =
    kind === 'none'
      ? value === undefined
      : kind === 'number'
        ? typeof value === 'number'
        : kind === 'string'
          ? typeof value === 'string'
          : value === null || ['string', 'number', 'boolean'].includes(typeof value);
  if (!ok)
    throw fail(
      key,
      kind === 'none'
        ? `\`${path}.value\` is not taken by \`${rule.operator}\`.`
        : `\`${path}.value\` must be ${kind === 'any' ? 'a string, number, boolean or null' : `a ${kind}`} for \`${rule.operator}\`.`,
    );
};

/** A `{var: name}` reference, or a literal of the allowed types. */
const checkValue = (key: string, field: string, value: unknown, literal: readonly string[]): void => {
  if (isObject(value)) {
    if (typeof value.var !== 'string' || Object.keys(value).length !== 1)
      throw fail(key, `\`config.${field}\` must be a value or {"var": "<event or contact field>"}.`);
    return;
  }
  if (!literal.includes(value === null ? 'null' : typeof value))
    throw fail(key, `\`config.${field}\` must be ${literal.join(' or ')}, or {"var": "..."}.`);
};

/** Checks one step's config for its type. */
const checkConfig = (step: Step): void => {
  const c = step.config;
  const k = step.key;
  const only = (allowed: readonly string[]) => {
    const extra = Object.keys(c).filter((f) => !allowed.includes(f));
    if (extra.length)
      throw fail(
        k,
        `\`config.${extra[0]}\` is not a field of a ${step.type} step (it takes ${allowed.join(', ') || 'none'}).`,
      );
  };
  switch (step.type) {
    case 'trigger':
      only(['event_name']);
      checkEventName(k, c.event_name);
      return;
    case 'delay':
      only(['duration']);
      checkDuration(k, 'duration', c.duration);
      return;
    case 'wait_for_event':
      only(['event_name', 'timeout', 'filter_rule']);
      checkEventName(k, c.event_name);
      if (c.timeout !== undefined && c.timeout !== null) checkDuration(k, 'timeout', c.timeout);
      if (c.filter_rule !== undefined && c.filter_rule !== null) checkRule(k, c.filter_rule, 'config.filter_rule');
      return;
    case 'condition':
      checkRule(k, c, 'config');
      return;
    case 'send_email': {
      only(['template', 'subject', 'from', 'reply_to', 'topic_id']);
      if (!isObject(c.template) || typeof c.template.id !== 'string' || c.template.id.length === 0)
        throw fail(k, '`config.template.id` is required: the id or alias of one of your templates.');
      if (c.template.variables !== undefined && !isObject(c.template.variables))
        throw fail(k, '`config.template.variables` must be an object.');
      for (const f of ['subject', 'from', 'reply_to', 'topic_id'])
        if (c[f] !== undefined && c[f] !== null && typeof c[f] !== 'string')
          throw fail(k, `\`config.${f}\` must be a string.`);
      return;
    }
    case 'contact_update': {
      only(['first_name', 'last_name', 'unsubscribed', 'properties']);
      if (c.first_name !== undefined) checkValue(k, 'first_name', c.first_name, ['string', 'null']);
      if (c.last_name !== undefined) checkValue(k, 'last_name', c.last_name, ['string', 'null']);
      if (c.unsubscribed !== undefined) checkValue(k, 'unsubscribed', c.unsubscribed, ['boolean']);
      if (c.properties !== undefined) {
        if (!isObject(c.properties)) throw fail(k, '`config.properties` must be an object.');
        for (const [name, v] of Object.entries(c.properties))
          checkValue(k, `properties.${name}`, v, ['string', 'number', 'boolean', 'null']);
      }
      return;
    }
    case 'contact_delete':
      only([]);
      return;
    case 'add_to_segment':
      only(['segment_id']);
      if (typeof c.segment_id !== 'string' || c.segment_id.length === 0)
        throw fail(k, '`config.segment_id` is required: the id of one of your segments.');
      return;
  }
};

/**
 * Checks an automation's graph on save: unique keys, one trigger, each step's config, every
 * connection between known steps with a type its source step allows (one per type), nothing
 * into the trigger, every step reachable from it, and no cycle that does not pass a delay or a
 * wait (it would run at once forever). Refusals are 422 naming the step.
 */
export const checkGraph = (graph: Graph): void => {
  const byKey = new Map<string, Step>();
  for (const s of graph.steps) {
    if (byKey.has(s.key)) throw fail(s.key, 'two steps have this key; each key names one step.');
    byKey.set(s.key, s);
  }
  const triggers = graph.steps.filter((s) => s.type === 'trigger');
  if (triggers.length !== 1)
    throw validationError(
      `\`steps\` must hold exactly one \`trigger\` step (it names the event that starts a run); found ${triggers.length}.`,
    );
  for (const s of graph.steps) checkConfig(s);
  const seen = new Set<string>();
  for (const c of graph.connections) {
    const from = byKey.get(c.from);
    if (!from) throw validationError(`\`connections\`: \`from\` names \`${c.from}\`, which is no step's key.`);
    if (!byKey.has(c.to)) throw validationError(`\`connections\`: \`to\` names \`${c.to}\`, which is no step's key.`);
    const allowed = OUTGOING[from.type];
    if (!allowed.includes(c.type))
      throw fail(
        c.from,
        allowed.length
          ? `a ${from.type} step's connections are typed ${allowed.map((t) => `\`${t}\``).join(' or ')}, not \`${c.type}\`.`
          : `a ${from.type} step ends its path; it has no outgoing connections.`,
      );
    if (c.type === 'timeout' && !from.config.timeout)
      throw fail(c.from, 'a `timeout` connection needs `config.timeout` on the wait_for_event step.');
    if (byKey.get(c.to)!.type === 'trigger') throw fail(c.from, 'no connection may lead into the trigger.');
    if (c.from === c.to) throw fail(c.from, 'a step may not connect to itself.');
    const one = `${c.from}\u0000${c.type}`;
    if (seen.has(one)) throw fail(c.from, `it has two \`${c.type}\` connections; a branch leads to one step.`);
    seen.add(one);
  }
  const next = (key: string) => graph.connections.filter((c) => c.from === key).map((c) => c.to);
  const reached = new Set<string>([triggers[0]!.key]);
  const queue = [triggers[0]!.key];
  while (queue.length)
    for (const to of next(queue.shift()!))
      if (!reached.has(to)) {
        reached.add(to);
        queue.push(to);
      }
  const unreachable = graph.steps.find((s) => !reached.has(s.key));
  if (unreachable) throw fail(unreachable.key, 'no path from the trigger reaches it; connect it or remove it.');
  // A cycle among steps that run at once (no delay, no wait) would loop without end.
  const instant = (key: string) => !['delay', 'wait_for_event'].includes(byKey.get(key)!.type);
  const state = new Map<string, 'open' | 'done'>();
  const visit = (key: string): string | undefined => {
    state.set(key, 'open');
    for (const to of next(key).filter(instant)) {
      if (state.get(to) === 'open') return to;
      if (!state.has(to)) {
        const found = visit(to);
        if (found) return found;
      }
    }
    state.set(key, 'done');
    return undefined;
  };
  for (const s of graph.steps.filter((x) => instant(x.key)))
    if (!state.has(s.key)) {
      const looped = visit(s.key);
      if (looped) throw fail(looped, 'it is on a cycle with no delay or wait_for_event step; add one to the loop.');
    }
};

/** The trigger's event name. */
export const triggerEvent = (graph: Graph): string =>
  graph.steps.find((s) => s.type === 'trigger')!.config.event_name as string;

/** The step a connection of `type` leads to from `key`, if any. */
export const nextStep = (graph: Graph, key: string, type: ConnectionType): Step | undefined => {
  const c = graph.connections.find((x) => x.from === key && x.type === type);
  return c ? graph.steps.find((s) => s.key === c.to) : undefined;
};
