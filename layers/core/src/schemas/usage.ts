import * as v from 'valibot';
import { Id, Timestamp } from './common.ts';

/** GET /usage: the team, its plan and limits in cloud mode, and what it has sent. */
export const UsageObject = v.object({
  object: v.literal('usage'),
  team: v.object({ id: Id, name: v.string() }),
  app_url: v.string(),
  cloud: v.boolean(),
  plan: v.nullable(v.string()),
  limits: v.nullable(
    v.object({
      emails_per_day: v.optional(v.nullable(v.number())),
      emails_per_month: v.optional(v.nullable(v.number())),
      domains: v.nullable(v.number()),
      contacts: v.nullable(v.number()),
    }),
  ),
  /** `automation_runs`: runs of the team's automations started today. */
  today: v.object({ emails_sent: v.number(), automation_runs: v.number(), resets_at: Timestamp }),
  period: v.nullable(
    v.object({
      emails_sent: v.number(),
      included: v.number(),
      overage_enabled: v.boolean(),
      overage_usd_per_1k: v.number(),
      starts_at: Timestamp,
      ends_at: Timestamp,
    }),
  ),
});
