/** The plans of spec §8 and what each allows. `null` means unlimited. */
export const PLANS = {
  free: { emailsPerDay: 100, emailsPerMonth: null, domains: 1, contacts: 1_000, attachmentBytes: 1_000_000, teams: 1 },
  starter: {
    emailsPerDay: 1_500,
    emailsPerMonth: null,
    domains: 3,
    contacts: 10_000,
    attachmentBytes: 1_000_000,
    teams: 2,
  },
  pro: {
    emailsPerDay: null,
    emailsPerMonth: 50_000,
    domains: 10,
    contacts: null,
    attachmentBytes: 5_000_000,
    teams: 5,
  },
  scale: {
    emailsPerDay: null,
    emailsPerMonth: 100_000,
    domains: null,
    contacts: null,
    attachmentBytes: 10_000_000,
    teams: 10,
  },
} as const;

/** A plan name. */
export type PlanName = keyof typeof PLANS;

/** The plan names, for validation. */
export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];

/** What one plan allows. */
export type PlanLimits = (typeof PLANS)[PlanName];

/** The caps in force: the plan's in cloud mode, none on a self-hosted deployment. */
export const limitsFor = (cloud: boolean, plan: PlanName): PlanLimits | undefined => (cloud ? PLANS[plan] : undefined);
