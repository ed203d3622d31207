import type { Contact } from '../contacts/contact.ts';

/** What a rule reads: the run's contact, the event's payload, and the last email the run sent (read only when asked). */
export interface RuleContext {
  readonly contact: Contact | undefined;
  readonly event: Readonly<Record<string, unknown>>;
  readonly lastEmail: () => Promise<Record<string, any> | undefined>;
}

/** A rule as graph.ts checked it (the SDK's ConditionRule, wire spelling). */
type Rule = { type: 'rule'; field: string; operator: string; value?: unknown } | { type: 'and' | 'or'; rules: Rule[] };

const path = (root: unknown, parts: readonly string[]): unknown =>
  parts.reduce<unknown>(
    (x, p) => (x !== null && typeof x === 'object' ? (x as Record<string, unknown>)[p] : undefined),
    root,
  );

const contactField = (c: Contact | undefined, parts: readonly string[]): unknown => {
  if (!c) return undefined;
  const [head, ...rest] = parts;
  const fields: Record<string, unknown> = {
    id: c.id,
    email: c.email,
    first_name: c.firstName,
    last_name: c.lastName,
    unsubscribed: c.unsubscribed,
    properties: c.properties,
    created_at: c.createdAt,
  };
  return path(fields[head ?? ''], rest);
};

/** The value a field names (`contact.x`, `event.x`, `email.opened`). */
const fieldValue = async (field: string, ctx: RuleContext): Promise<unknown> => {
  const [root, ...parts] = field.split('.');
  if (root === 'contact') return contactField(ctx.contact, parts);
  if (root === 'event') return path(ctx.event, parts);
  const email = await ctx.lastEmail();
  if (!email) return false;
  switch (parts[0]) {
    case 'opened':
      return email.engagement === 'opened' || email.engagement === 'clicked';
    case 'clicked':
      return email.engagement === 'clicked';
    case 'delivered':
      return ['delivered', 'opened', 'clicked'].includes(email.status) || email.engagement !== undefined;
    case 'bounced':
      return email.status === 'bounced';
    default:
      return undefined;
  }
};

/** True when the rule holds. A missing field equals only null, and fails every comparison. */
export const evaluate = async (rule: Rule, ctx: RuleContext): Promise<boolean> => {
  if (rule.type !== 'rule') {
    for (const r of rule.rules) if ((await evaluate(r, ctx)) === (rule.type === 'or')) return rule.type === 'or';
    return rule.type === 'and';
  }
  const x = await fieldValue(rule.field, ctx);
  const v = rule.value;
  switch (rule.operator) {
    case 'eq':
      return (x ?? null) === v;
    case 'neq':
      return (x ?? null) !== v;
    case 'gt':
      return typeof x === 'number' && x > (v as number);
    case 'gte':
      return typeof x === 'number' && x >= (v as number);
    case 'lt':
      return typeof x === 'number' && x < (v as number);
    case 'lte':
      return typeof x === 'number' && x <= (v as number);
    case 'contains':
      return typeof x === 'string' && x.includes(v as string);
    case 'starts_with':
      return typeof x === 'string' && x.startsWith(v as string);
    case 'ends_with':
      return typeof x === 'string' && x.endsWith(v as string);
    case 'exists':
      return x !== undefined && x !== null;
    case 'is_empty':
      return x === undefined || x === null || x === '';
    default:
      return false;
  }
};

/** A step's value: a literal, or `{var: "event.x" | "contact.x"}` read from the run (null when absent). */
export const resolveVar = (value: unknown, ctx: Pick<RuleContext, 'contact' | 'event'>): unknown => {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !('var' in value)) return value;
  const [root, ...parts] = String((value as { var: unknown }).var).split('.');
  const found =
    root === 'contact'
      ? contactField(ctx.contact, parts)
      : root === 'event'
        ? path(ctx.event, parts)
        : path(ctx.event, [root!, ...parts]);
  return found ?? null;
};
