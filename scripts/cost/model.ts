/**
 * The cost model of `npm run cost`: measured counts per email (and per broadcast recipient), the
 * stack's always-on resources, and a price table, turned into dollars a month and per 1,000
 * emails. Pure arithmetic: no engines, no AWS.
 */
import * as v from 'valibot';

/** The prices the model reads, each with where it was read and when. */
export const PRICE_KEYS = [
  'apiGatewayHttpPerMillionRequests',
  'lambdaArmPerMillionRequests',
  'lambdaArmPerGbSecond',
  'dynamoDbPerMillionWriteUnits',
  'dynamoDbPerMillionReadUnits',
  'dynamoDbPerGbMonthStored',
  'sqsPerMillionRequests',
  'snsPerMillionPublishes',
  's3PerThousandPuts',
  's3PerThousandGets',
  'logsPerGbIngested',
  'logsPerGbMonthStored',
  'alarmPerMonth',
  'dashboardPerMonth',
  'customMetricPerMonth',
  'xrayPerMillionTraces',
  'secretPerMonth',
  'fargateArmPerVcpuHour',
  'fargateArmPerGbHour',
  'nlbPerHour',
  'publicIpv4PerHour',
] as const;
export type PriceKey = (typeof PRICE_KEYS)[number];

const Price = v.object({
  value: v.pipe(v.number(), v.minValue(0)),
  source: v.pipe(v.string(), v.url()),
  read: v.pipe(v.string(), v.isoDate()),
});
/**
 * SES's pricing plans (`PutAccountPricingAttributes`' Plan, chosen per account and region): `none`
 * bills each feature apart (à la carte), the others are packaged plans. `npm run cost -- --ses-plan`.
 */
export const SES_PLANS = ['none', 'essentials', 'pro', 'enterprise'] as const;
export type SesPlanName = (typeof SES_PLANS)[number];

/** One SES plan: what it bills per 1,000 outbound recipients (SES counts each to, cc and bcc address) and a month. */
const SesPlan = v.object({
  plan: v.picklist(['NONE', 'ESSENTIALS', 'PRO', 'ENTERPRISE']),
  perThousandRecipients: v.pipe(v.number(), v.minValue(0)),
  perMonth: v.pipe(v.number(), v.minValue(0)),
  note: v.optional(v.string()),
  source: v.pipe(v.string(), v.url()),
  read: v.pipe(v.string(), v.isoDate()),
});
const PriceTable = v.object({
  region: v.pipe(v.string(), v.regex(/^[a-z]{2}(-[a-z]+)+-\d$/)),
  currency: v.literal('USD'),
  hoursPerMonth: v.pipe(v.number(), v.minValue(1)),
  note: v.optional(v.string()),
  prices: v.object(Object.fromEntries(PRICE_KEYS.map((k) => [k, Price])) as Record<PriceKey, typeof Price>),
  sesPlans: v.object(Object.fromEntries(SES_PLANS.map((k) => [k, SesPlan])) as Record<SesPlanName, typeof SesPlan>),
});
export type PriceTable = v.InferOutput<typeof PriceTable>;

/** Reads a price table, or says which entries are missing or malformed and what each must be. */
export const parsePriceTable = (raw: unknown, file: string): PriceTable => {
  const out = v.safeParse(PriceTable, raw);
  if (out.success) return out.output;
  const problems = out.issues.map((i) => `${v.getDotPath(i) ?? '(root)'}: ${i.message}`);
  throw new Error(
    `${file} is not a price table: ${problems.join('; ')}. Each of prices.{${PRICE_KEYS.join(',')}} is {"value": <USD>, "source": "<https URL>", "read": "<YYYY-MM-DD>"}, and each of sesPlans.{${SES_PLANS.join(',')}} is {"plan": <SES's name>, "perThousandRecipients": <USD>, "perMonth": <USD>, "source", "read"}; see scripts/cost/prices-us-east-1.json`,
  );
};

/** What one email (or one broadcast recipient) costs in billed units, measured on the local host. */
export interface UnitCounts {
  apiRequests: number;
  lambdaInvocations: number;
  /** Billed Lambda milliseconds (each invocation rounded up). */
  lambdaBilledMs: number;
  ddbReadUnits: number;
  ddbWriteUnits: number;
  sqsRequests: number;
  snsNotifications: number;
  s3Puts: number;
  s3Gets: number;
  /** Bytes of log lines the functions wrote, and how many lines (CloudWatch bills 26 bytes more per event). */
  logBytes: number;
  logEvents: number;
  /** Recipients SES sent to (to, cc and bcc): SES bills each one, not each call. */
  sesRecipients: number;
}

/** The stack's always-on resources, read from its synthesized template, and the measured timer runs. */
export interface FixedShape {
  /** Memory of the functions, GB (from the template). */
  functionMemoryGb: number;
  /** Whether Lambda writes its own START, END and REPORT lines for each invocation (system log level INFO or below). */
  platformLogLines: boolean;
  alarms: number;
  dashboards: number;
  secrets: number;
  /** Custom metrics the functions publish (name and dimensions), counted from their embedded-metric lines. */
  customMetrics: number;
  /** Queues Lambda polls (event source mappings), each polled all the time, mail or not. */
  polledQueues: number;
  /** Timer runs a month (EventBridge rules' rates) and what one run costs in units. */
  timerRunsPerMonth: number;
  timerRun: Pick<
    UnitCounts,
    'lambdaInvocations' | 'lambdaBilledMs' | 'ddbReadUnits' | 'ddbWriteUnits' | 'sqsRequests' | 'logBytes' | 'logEvents'
  >;
  /** The SMTP relay when turned on (its tasks, load balancer and public addresses). */
  relay?: {
    tasks: number;
    vcpu: number;
    memoryGb: number;
    loadBalancers: number;
    publicIpv4: number;
    /** Alarms Application Auto Scaling makes for target tracking (billed, not in the template). */
    scalingAlarms: number;
    secrets: number;
    /** Container Insights metrics of the cluster and service (an estimate). */
    containerInsightsMetrics: number;
  };
}

/** Bytes Lambda itself logs per invocation at system log level INFO (START, END and REPORT lines), and how many lines. */
export const PLATFORM_LOG_BYTES = 420;
export const PLATFORM_LOG_EVENTS = 3;
/** One API access log line (the stage's JSON format with typical values). */
const ACCESS_LOG_BYTES = 330;
/** CloudWatch Logs bills each event 26 bytes over its message. */
const LOG_EVENT_OVERHEAD_BYTES = 26;
/** Months function logs and API access logs are kept (the stack's log group retentions). */
const FUNCTION_LOG_MONTHS = 1;
const ACCESS_LOG_MONTHS = 3;
/** Lambda's event source mapping keeps this many long polls (20 s each) on an idle queue. */
const IDLE_POLLERS_PER_QUEUE = 5;
const POLL_SECONDS = 20;
/** X-Ray's default sampling: the first request each second, then 5% of the rest. */
const XRAY_RESERVOIR_PER_SECOND = 1;
const XRAY_RATE = 0.05;

/** One line of a monthly bill. */
export interface CostLine {
  readonly name: string;
  readonly dollars: number;
}

const sum = (lines: readonly CostLine[]) => lines.reduce((n, l) => n + l.dollars, 0);

/** Log bytes as CloudWatch bills them (each event's overhead included), in GB. */
const billedLogGb = (bytes: number, events: number): number => (bytes + events * LOG_EVENT_OVERHEAD_BYTES) / 1e9;

/** Traces X-Ray records in a month of `invocations` spread evenly (default sampling rule). */
export const sampledTraces = (invocations: number, hoursPerMonth: number): number => {
  const reservoir = XRAY_RESERVOIR_PER_SECOND * hoursPerMonth * 3600;
  return Math.min(invocations, reservoir) + XRAY_RATE * Math.max(0, invocations - reservoir);
};

/**
 * The cost of `volume` emails a month, line by line: what scales with the emails, and apart, the
 * fixed lines (always-on resources, timers, idle polling; the relay's when `relay` is on). With
 * `tracing` on, X-Ray samples the timers' invocations with the emails'.
 */
export const monthlyCost = (
  volume: number,
  perEmail: UnitCounts,
  fixed: FixedShape,
  table: PriceTable,
  options: { relay: boolean; tracing: boolean; sesPlan: SesPlanName },
) => {
  const { relay, tracing } = options;
  const sesPlan = table.sesPlans[options.sesPlan];
  const p = (k: PriceKey) => table.prices[k].value;
  const hours = table.hoursPerMonth;
  const gbSeconds = (ms: number) => (ms / 1000) * fixed.functionMemoryGb;
  const n = volume;
  const emailInvocations = n * perEmail.lambdaInvocations;
  const timerInvocations = fixed.timerRunsPerMonth * fixed.timerRun.lambdaInvocations;
  const traces = tracing ? sampledTraces(emailInvocations + timerInvocations, hours) : 0;
  const emailTraceShare = emailInvocations / Math.max(1, emailInvocations + timerInvocations);
  const platformBytes = fixed.platformLogLines ? PLATFORM_LOG_BYTES : 0;
  const platformEvents = fixed.platformLogLines ? PLATFORM_LOG_EVENTS : 0;
  const functionLogGb = billedLogGb(
    n * (perEmail.logBytes + perEmail.lambdaInvocations * platformBytes),
    n * (perEmail.logEvents + perEmail.lambdaInvocations * platformEvents),
  );
  const accessLogGb = billedLogGb(n * perEmail.apiRequests * ACCESS_LOG_BYTES, n * perEmail.apiRequests);
  const variable: CostLine[] = [
    { name: 'SES', dollars: ((n * perEmail.sesRecipients) / 1000) * sesPlan.perThousandRecipients },
    { name: 'API Gateway', dollars: ((n * perEmail.apiRequests) / 1e6) * p('apiGatewayHttpPerMillionRequests') },
    { name: 'Lambda requests', dollars: (emailInvocations / 1e6) * p('lambdaArmPerMillionRequests') },
    { name: 'Lambda GB-s', dollars: gbSeconds(n * perEmail.lambdaBilledMs) * p('lambdaArmPerGbSecond') },
    { name: 'DynamoDB writes', dollars: ((n * perEmail.ddbWriteUnits) / 1e6) * p('dynamoDbPerMillionWriteUnits') },
    { name: 'DynamoDB reads', dollars: ((n * perEmail.ddbReadUnits) / 1e6) * p('dynamoDbPerMillionReadUnits') },
    { name: 'SQS', dollars: ((n * perEmail.sqsRequests) / 1e6) * p('sqsPerMillionRequests') },
    { name: 'SNS', dollars: ((n * perEmail.snsNotifications) / 1e6) * p('snsPerMillionPublishes') },
    {
      name: 'S3 requests',
      dollars:
        ((n * perEmail.s3Puts) / 1000) * p('s3PerThousandPuts') +
        ((n * perEmail.s3Gets) / 1000) * p('s3PerThousandGets'),
    },
    {
      name: 'CloudWatch Logs',
      dollars:
        functionLogGb * (p('logsPerGbIngested') + FUNCTION_LOG_MONTHS * p('logsPerGbMonthStored')) +
        accessLogGb * (p('logsPerGbIngested') + ACCESS_LOG_MONTHS * p('logsPerGbMonthStored')),
    },
    { name: 'X-Ray', dollars: ((traces * emailTraceShare) / 1e6) * p('xrayPerMillionTraces') },
  ];
  const timerLogGb = billedLogGb(
    fixed.timerRunsPerMonth * (fixed.timerRun.logBytes + fixed.timerRun.lambdaInvocations * platformBytes),
    fixed.timerRunsPerMonth * (fixed.timerRun.logEvents + fixed.timerRun.lambdaInvocations * platformEvents),
  );
  const runs = fixed.timerRunsPerMonth;
  const fixedLines: CostLine[] = [
    { name: `SES plan (${options.sesPlan})`, dollars: sesPlan.perMonth },
    { name: `CloudWatch alarms (${fixed.alarms})`, dollars: fixed.alarms * p('alarmPerMonth') },
    { name: `CloudWatch dashboard (${fixed.dashboards})`, dollars: fixed.dashboards * p('dashboardPerMonth') },
    { name: `custom metrics (${fixed.customMetrics})`, dollars: fixed.customMetrics * p('customMetricPerMonth') },
    { name: `Secrets Manager (${fixed.secrets})`, dollars: fixed.secrets * p('secretPerMonth') },
    {
      name: `idle queue polling (${fixed.polledQueues} queues)`,
      dollars:
        ((fixed.polledQueues * IDLE_POLLERS_PER_QUEUE * ((hours * 3600) / POLL_SECONDS)) / 1e6) *
        p('sqsPerMillionRequests'),
    },
    {
      name: `timers (${Math.round(runs).toLocaleString('en')} runs)`,
      dollars:
        ((runs * fixed.timerRun.lambdaInvocations) / 1e6) * p('lambdaArmPerMillionRequests') +
        gbSeconds(runs * fixed.timerRun.lambdaBilledMs) * p('lambdaArmPerGbSecond') +
        ((runs * fixed.timerRun.ddbReadUnits) / 1e6) * p('dynamoDbPerMillionReadUnits') +
        ((runs * fixed.timerRun.ddbWriteUnits) / 1e6) * p('dynamoDbPerMillionWriteUnits') +
        ((runs * fixed.timerRun.sqsRequests) / 1e6) * p('sqsPerMillionRequests') +
        timerLogGb * (p('logsPerGbIngested') + FUNCTION_LOG_MONTHS * p('logsPerGbMonthStored')) +
        ((traces * (1 - emailTraceShare)) / 1e6) * p('xrayPerMillionTraces'),
    },
  ];
  if (relay && fixed.relay) {
    const r = fixed.relay;
    fixedLines.push(
      {
        name: `relay Fargate (${r.tasks} x ${r.vcpu} vCPU, ${r.memoryGb} GB)`,
        dollars: r.tasks * hours * (r.vcpu * p('fargateArmPerVcpuHour') + r.memoryGb * p('fargateArmPerGbHour')),
      },
      { name: `relay NLB (${r.loadBalancers})`, dollars: r.loadBalancers * hours * p('nlbPerHour') },
      { name: `relay public IPv4 (${r.publicIpv4})`, dollars: r.publicIpv4 * hours * p('publicIpv4PerHour') },
      { name: `relay scaling alarms (${r.scalingAlarms})`, dollars: r.scalingAlarms * p('alarmPerMonth') },
      { name: `relay TLS secret (${r.secrets})`, dollars: r.secrets * p('secretPerMonth') },
      {
        name: `relay Container Insights (~${r.containerInsightsMetrics} metrics)`,
        dollars: r.containerInsightsMetrics * p('customMetricPerMonth'),
      },
    );
  }
  const variableTotal = sum(variable);
  const fixedTotal = sum(fixedLines);
  const ses = variable[0]!.dollars + sesPlan.perMonth;
  const per1000 = (dollars: number) => (n > 0 ? (dollars / n) * 1000 : 0);
  return {
    volume,
    variable,
    fixed: fixedLines,
    variableTotal,
    fixedTotal,
    /** Dollars per 1,000 emails: what scales with them, the fixed lines amortized, and all in. */
    per1000: {
      variable: per1000(variableTotal),
      fixed: per1000(fixedTotal),
      allIn: per1000(variableTotal + fixedTotal),
      beyondSes: per1000(variableTotal + fixedTotal - ses),
    },
  };
};

/** DynamoDB bills each item's storage at its size plus this overhead, in the table and in each index holding it. */
const STORAGE_OVERHEAD_BYTES = 100;

/** Bytes stored, table and indexes, with the per-item overhead: from a DescribeTable delta. */
export const storedBytes = (sizes: { bytes: number; items: number }): number =>
  sizes.bytes + sizes.items * STORAGE_OVERHEAD_BYTES;

/** Per-unit counts from a counter delta over `units` emails (or recipients), with the log bytes measured beside them and the SES recipients of each. */
export const perUnit = (
  delta: Record<string, number>,
  log: { bytes: number; events: number },
  units: number,
  sesRecipients = 1,
): UnitCounts => ({
  apiRequests: (delta.apiRequests ?? 0) / units,
  lambdaInvocations: (delta.lambdaInvocations ?? 0) / units,
  lambdaBilledMs: (delta.lambdaBilledMs ?? 0) / units,
  ddbReadUnits: (delta.ddbReadUnits ?? 0) / units,
  ddbWriteUnits: (delta.ddbWriteUnits ?? 0) / units,
  sqsRequests:
    ((delta.queueRequests ?? 0) + (delta.queueReceiveRequests ?? 0) + (delta.queueDeleteRequests ?? 0)) / units,
  snsNotifications: (delta.snsNotifications ?? 0) / units,
  s3Puts: (delta.contentPuts ?? 0) / units,
  s3Gets: (delta.contentGets ?? 0) / units,
  logBytes: log.bytes / units,
  logEvents: log.events / units,
  sesRecipients,
});
