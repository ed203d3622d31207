/**
 * `npm run cost`: the cost per email, measured on the local host and priced. Counts per email
 * over its whole life (POST /emails, the send worker, the provider's Send and Delivery events
 * back, one webhook delivery to one endpoint), a short text email and an HTML one (`--html-kb`,
 * default 16), per broadcast recipient and per automation run
 * (an event starting a run that sends one email): API requests, Lambda
 * invocations and their billed duration, DynamoDB capacity units (as AWS bills them, through the
 * metered table store: cost/table-meter.ts), queue requests, SNS
 * notifications, content-store requests, log bytes at the stack's log level. Then the stack's
 * always-on resources from its synthesized template, and a price table (default
 * scripts/cost/prices-us-east-1.json; `npm run cost -- --prices <file>` for another region) into
 * dollars per 1,000 emails at 100 k, 1 M and 10 M emails a month, relay off and on. SES is priced
 * per recipient at the account's pricing plan (`--ses-plan`, default none: à la carte), each plan
 * with its prices in the price file.
 * A measurement, not a test: it prints figures and asserts nothing.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { FUNCTION_LOG_LEVEL } from '../lib/constructs/service-function.ts';
import { TIMERS } from '../functions/workers.ts';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  monthlyCost,
  parsePriceTable,
  perUnit,
  SES_PLANS,
  type SesPlanName,
  storedBytes,
  type FixedShape,
  type UnitCounts,
} from './cost/model.ts';
import { readStackShape } from './cost/stack-shape.ts';

const { values: args } = parseArgs({
  options: {
    prices: { type: 'string', default: resolve(import.meta.dirname, 'cost/prices-us-east-1.json') },
    emails: { type: 'string', default: '40' },
    'html-emails': { type: 'string', default: '10' },
    'html-kb': { type: 'string', default: '16' },
    recipients: { type: 'string', default: '40' },
    'ses-plan': { type: 'string', default: 'none' },
  },
});
const EMAILS = Number(args.emails);
const RECIPIENTS = Number(args.recipients);
const HTML_EMAILS = Number(args['html-emails']);
const HTML_KB = Number(args['html-kb']);
for (const [name, n] of [
  ['--emails', EMAILS],
  ['--recipients', RECIPIENTS],
  ['--html-emails', HTML_EMAILS],
  ['--html-kb', HTML_KB],
] as const) {
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`${name} must be a whole number of at least 1, got ${JSON.stringify(n)}`);
}
let priceFile: string;
try {
  priceFile = readFileSync(args.prices, 'utf8');
} catch (error) {
  throw new Error(
    `--prices ${args.prices}: cannot read it (${(error as Error).message}); pass a JSON price table shaped as scripts/cost/prices-us-east-1.json`,
  );
}
const prices = parsePriceTable(JSON.parse(priceFile), args.prices);
if (!(SES_PLANS as readonly string[]).includes(args['ses-plan']))
  throw new Error(
    `--ses-plan must be one of SES's pricing plans, ${SES_PLANS.join(', ')} (none: each feature billed apart), got ${JSON.stringify(args['ses-plan'])}`,
  );
/** The account's SES pricing plan (`PutAccountPricingAttributes`; chosen per account and region). */
const SES_PLAN = args['ses-plan'] as SesPlanName;
const sesPlan = prices.sesPlans[SES_PLAN];
const VOLUMES = [100_000, 1_000_000, 10_000_000];

// The functions publish their metrics as embedded-metric log lines on AWS: here too, so their
// bytes and the custom metrics they define are measured (set before the host is loaded).
process.env.POWERTOOLS_METRICS_DISABLED = 'false';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/**
 * Everything the functions write goes to CloudWatch Logs on AWS: while metering, this process's
 * stdout and stderr are counted (bytes and lines) and held back; the custom metrics named in
 * embedded-metric lines are collected.
 */
const meter = (() => {
  const original = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
  const state = { on: false, bytes: 0, events: 0, held: [] as string[], metrics: new Set<string>() };
  const take = (chunk: unknown): boolean => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    state.bytes += Buffer.byteLength(text);
    const lines = text.split('\n').filter((l) => l.length > 0);
    state.events += lines.length;
    for (const line of lines) {
      state.held.push(line);
      if (line.includes('"CloudWatchMetrics"')) {
        try {
          const emf = JSON.parse(line);
          for (const d of emf._aws.CloudWatchMetrics)
            for (const m of d.Metrics)
              for (const dims of d.Dimensions)
                state.metrics.add(`${d.Namespace}/${m.Name}[${dims.map((k: string) => `${k}=${emf[k]}`).join(',')}]`);
        } catch {
          /* not an embedded-metric line */
        }
      }
    }
    if (state.held.length > 200) state.held.splice(0, state.held.length - 200);
    return true;
  };
  const through =
    (write: (...a: any[]) => boolean) =>
    (chunk: unknown, ...rest: any[]): boolean =>
      state.on ? take(chunk) : write(chunk, ...rest);
  process.stdout.write = through(original.out) as typeof process.stdout.write;
  process.stderr.write = through(original.err) as typeof process.stderr.write;
  return {
    start() {
      state.on = true;
    },
    stop() {
      state.on = false;
    },
    read: () => ({ bytes: state.bytes, events: state.events }),
    metrics: () => [...state.metrics].sort(),
    /** A progress line to the terminal, metering or not. */
    say: (line: string) => {
      original.err(`${line}\n`);
    },
    /** The last lines held back (printed when the run fails). */
    held: () => state.held.join('\n'),
  };
})();

const print = (line = '') => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const { startLocalHost } = await import('../lib/local/host.ts');
const { segmentOfListeners, sendingTeam } = await import('./bench-team.ts');
const { countInvocation } = await import('@mailstack/core/adapters/aws/counters');
const { meterTable } = await import('./cost/table-meter.ts');
const { lambdaContext } = await import('../lib/local/events.ts');

print('mailstack cost model: measuring on the local host (in memory)...');
const shape = readStackShape(prices.hoursPerMonth);

// A receiver for the one webhook endpoint: answers 200 at once and counts deliveries.
let hooks = 0;
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    hooks += 1;
    res.writeHead(200).end('ok');
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));

meter.start();
const host = await startLocalHost({
  port: 0,
  smtpPort: 0,
  inboundPort: 0,
  dashboardPort: 0,
  memory: true,
  timers: false,
  env: {
    LOG_LEVEL: FUNCTION_LOG_LEVEL,
    PROVIDER_RATE_PER_SECOND: '50',
    API_RATE_LIMIT_PER_MINUTE: '1000000',
    TEAM_RATE_LIMIT_PER_MINUTE: '1000000',
  },
});
// What the table and its indexes hold (DynamoDB Local reports their sizes and item counts).
const dynamo = new DynamoDBClient({
  endpoint: host.state.env.DYNAMODB_ENDPOINT,
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});
const held = async () => {
  const t = (await dynamo.send(new DescribeTableCommand({ TableName: host.state.tableName }))).Table!;
  const parts = [
    { bytes: t.TableSizeBytes ?? 0, items: t.ItemCount ?? 0 },
    ...(t.GlobalSecondaryIndexes ?? []).map((x) => ({ bytes: x.IndexSizeBytes ?? 0, items: x.ItemCount ?? 0 })),
  ];
  return storedBytes({
    bytes: parts.reduce((n, x) => n + x.bytes, 0),
    items: parts.reduce((n, x) => n + x.items, 0),
  });
};

try {
  const deps = host.deps;
  const counters = deps.counters as unknown as Record<string, number>;
  // DynamoDB units as AWS bills them (table-meter.ts), by command and item kind too, and the send
  // worker's table requests timed: how long a send job holds its invocation and how many round
  // trips it waits for in sequence, the time the sending workers' concurrency is derived from
  // (docs/aws.md, Sending at high rates).
  const table = meterTable(deps);
  const writesByKind = table.writesByKind;
  /** Each send job's time (its first table request to its last) and its requests and round trips in sequence. */
  const sendJobs: { ms: number; requests: number; stages: number }[] = [];
  const noteSendJob = () => {
    const job = table.takeSendJob();
    if (job) sendJobs.push(job);
  };

  // DynamoDB's units are the metered store's (as AWS bills them), the rest the adapter counters.
  const snapshot = (): Record<string, number> => ({ ...counters, ...table.billed() });
  const delta = (before: Record<string, number>) =>
    Object.fromEntries(Object.entries(snapshot()).map(([k, v]) => [k, v - (before[k] ?? 0)]));
  /** Waits until nothing has been counted for `stillMs` (every worker idle), at most `ms`. */
  const quiet = async (ms = 120_000, stillMs = 2000) => {
    const deadline = Date.now() + ms;
    let last = JSON.stringify(counters);
    let still = Date.now();
    while (Date.now() < deadline) {
      await sleep(100);
      const now = JSON.stringify(counters);
      if (now !== last) {
        last = now;
        still = Date.now();
      } else if (Date.now() - still >= stillMs) return;
    }
  };
  const until = async (done: () => boolean, what: string, ms = 180_000) => {
    const deadline = Date.now() + ms;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(100);
    }
  };

  const { secret, resend } = await sendingTeam(host, { name: 'Cost', domain: 'cost.example.com' });
  const hook = await resend.webhooks.create({
    endpoint: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
    events: ['email.delivered'],
  });
  if (hook.error) throw new Error(`webhook create failed: ${hook.error.message}`);
  /**
   * A transactional email as products send them, not the smallest one: named sender and recipient
   * with a reply-to, a subject with an order number, three tags (stored on the row, sent as SES
   * message tags), a header of the sender's own and a text body of a few lines: one recipient.
   */
  const email = (n: number) => ({
    from: 'Acme Store <orders@cost.example.com>',
    to: `Dana Whitfield <dana.whitfield+${n}@example.com>`,
    replyTo: 'Acme Support <support@cost.example.com>',
    subject: `Your Acme order #${(482_109_370 + n).toString()} has shipped`,
    tags: [
      { name: 'category', value: 'order_shipped' },
      { name: 'plan', value: 'pro' },
      { name: 'locale', value: 'en_US' },
    ],
    headers: { 'X-Entity-Ref-ID': `order-${(482_109_370 + n).toString()}-shipment-1` },
    text: [
      'Hi Dana,',
      '',
      `Good news: your order #${(482_109_370 + n).toString()} is on its way. It left our warehouse today and should arrive within 2-4 business days.`,
      '',
      'Track your parcel: https://cost.example.com/orders/track?ref=1Z999AA10123456784',
      '',
      'Questions about your order? Reply to this email and our support team will help.',
      '',
      'Thanks for shopping with Acme.',
    ].join('\n'),
  });
  /** Recipients SES bills for an email (to, cc and bcc). */
  const recipientsOf = (e: { to: string | string[]; cc?: string | string[]; bcc?: string | string[] }) =>
    [e.to, e.cc ?? [], e.bcc ?? []].flat().length;
  // A styled HTML email of HTML_KB with a text part of a tenth of it: a receipt built from an
  // email template (inlined styles on every cell), as most transactional mail is sent. Its lines
  // differ (item names, SKUs, prices from a seeded generator), so it compresses as such mail
  // does, not as one line repeated.
  const receipt = (n: number) => {
    let seed = n + 1;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const WORDS =
      'order shipped invoice account product delivery address payment summer cotton shirt blue large wireless headphones charger cable kitchen towel coffee beans organic tea notebook bottle'.split(
        ' ',
      );
    const words = (k: number) => Array.from({ length: k }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ');
    const cell = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:14px;color:#3c4149";
    let rows = '';
    let lines = '';
    while (rows.length < HTML_KB * 1024) {
      const [name, detail, price] = [words(3), words(6), (next() * 200).toFixed(2)];
      rows += `<tr><td style="padding:8px 0;${cell}"><p style="margin:0;font-weight:600">${name}</p><p style="margin:0;color:#6b7280">${detail}, SKU ${Math.floor(next() * 1e8)}</p></td><td align="right" style="padding:8px 0;${cell}">$${price}</td></tr>\n`;
      if (lines.length < (HTML_KB * 1024) / 10) lines += `${name}: $${price}\n`;
    }
    return {
      html: `<!DOCTYPE html><html><body style="background-color:#f6f9fc"><table width="100%">${rows}</table></body></html>`,
      text: lines,
    };
  };
  // A receipt also goes, as a blind copy, to the store's bookkeeping: two recipients, each billed by SES.
  const htmlEmail = (n: number) => ({
    ...email(n),
    subject: `Your Acme receipt for order #${(482_109_370 + n).toString()}`,
    bcc: 'Acme Bookkeeping <receipts@cost.example.com>',
    ...receipt(n),
  });

  /**
   * Sends `n` emails one after another, each through its whole life (its webhook delivery and
   * every worker idle again) before the next: at 1 M a month (0.4 a second) each email has its
   * own worker invocations, so none is shared with another email here either.
   */
  const sendEmails = async (from: number, n: number, make = email) => {
    for (let i = 0; i < n; i++) {
      const expected = hooks + 1;
      const out = await resend.emails.send(make(from + i));
      if (out.error) throw new Error(`send failed: ${out.error.message}`);
      await until(() => hooks >= expected, `the webhook delivery of email ${from + i}`);
      await quiet(30_000, 700);
      noteSendJob();
    }
  };

  meter.say('  warming up');
  // Warm-up: every handler loaded and every cache filled, as in a warm Lambda.
  await sendEmails(0, 3);

  meter.say(`  ${EMAILS} emails`);
  // 1. Transactional emails, whole life.
  const c0 = snapshot();
  const l0 = meter.read();
  const s0 = await held();
  writesByKind.clear();
  sendJobs.length = 0;
  await sendEmails(1000, EMAILS);
  const emailSendJobs = sendJobs.splice(0);
  const storedPerEmail = ((await held()) - s0) / EMAILS;
  const emailWrites = [...writesByKind].sort((a, b) => b[1] - a[1]);
  const l1 = meter.read();
  const perEmail = perUnit(
    delta(c0),
    { bytes: l1.bytes - l0.bytes, events: l1.events - l0.events },
    EMAILS,
    recipientsOf(email(0)),
  );

  meter.say(`  ${HTML_EMAILS} HTML emails of ${HTML_KB} KB`);
  // 1b. The same life for HTML emails: what the body's size costs.
  const h0 = snapshot();
  const hl0 = meter.read();
  const hs0 = await held();
  writesByKind.clear();
  await sendEmails(2000, HTML_EMAILS, htmlEmail);
  const storedPerHtmlEmail = ((await held()) - hs0) / HTML_EMAILS;
  const htmlWrites = [...writesByKind].sort((a, b) => b[1] - a[1]);
  const hl1 = meter.read();
  const perHtmlEmail = perUnit(
    delta(h0),
    { bytes: hl1.bytes - hl0.bytes, events: hl1.events - hl0.events },
    HTML_EMAILS,
    recipientsOf(htmlEmail(0)),
  );

  meter.say(`  a broadcast to ${RECIPIENTS} contacts`);
  // 2. A broadcast to RECIPIENTS contacts (the contacts are made first, apart from it).
  const segment = await segmentOfListeners(host, { secret, resend }, 'Cost broadcast', RECIPIENTS);
  await quiet();
  const b0 = snapshot();
  const bl0 = meter.read();
  const expected = hooks + RECIPIENTS;
  const broadcast = await resend.broadcasts.create({
    segmentId: segment,
    from: 'Cost <cost@cost.example.com>',
    subject: 'Hello {{{FIRST_NAME|there}}}',
    text: 'Hi {{{FIRST_NAME}}}. {{{UNSUBSCRIBE_URL}}}',
  });
  if (broadcast.error) throw new Error(`broadcast create failed: ${broadcast.error.message}`);
  const sent = await resend.broadcasts.send(broadcast.data!.id);
  if (sent.error) throw new Error(`broadcast send failed: ${sent.error.message}`);
  await until(() => hooks >= expected, `${RECIPIENTS} broadcast webhook deliveries`, 600_000);
  await quiet();
  const bl1 = meter.read();
  const perRecipient = perUnit(
    delta(b0),
    { bytes: bl1.bytes - bl0.bytes, events: bl1.events - bl0.events },
    RECIPIENTS,
  );

  meter.say(`  an automation run for each of the ${RECIPIENTS} contacts`);
  // 3. Automations: an event for each contact starts a run of trigger -> send_email (the events
  // sent one after another, the engine left to take them as they come); each run's email is
  // counted through its whole life, as above.
  const welcome = await resend.templates.create({
    name: 'Cost welcome',
    from: 'Cost <cost@cost.example.com>',
    subject: 'Welcome',
    html: '<p>Hi {{{FIRST_NAME|there}}}</p>',
  } as Parameters<typeof resend.templates.create>[0]);
  if (welcome.error) throw new Error(`template create failed: ${welcome.error.message}`);
  const automation = await resend.automations.create({
    name: 'Cost welcome',
    status: 'enabled',
    steps: [
      { key: 'start', type: 'trigger', config: { eventName: 'cost.signed_up' } },
      { key: 'hello', type: 'send_email', config: { template: { id: welcome.data!.id } } },
    ],
    connections: [{ from: 'start', to: 'hello', type: 'default' }],
  });
  if (automation.error) throw new Error(`automation create failed: ${automation.error.message}`);
  await quiet();
  const a0 = snapshot();
  const al0 = meter.read();
  const runsDone = hooks + RECIPIENTS;
  for (let i = 0; i < RECIPIENTS; i++) {
    const sentEvent = await resend.events.send({ event: 'cost.signed_up', email: `listener${i}@example.com` });
    if (sentEvent.error) throw new Error(`event send failed: ${sentEvent.error.message}`);
  }
  await until(() => hooks >= runsDone, `${RECIPIENTS} automation emails' webhook deliveries`, 600_000);
  await quiet();
  const al1 = meter.read();
  const perRun = perUnit(delta(a0), { bytes: al1.bytes - al0.bytes, events: al1.events - al0.events }, RECIPIENTS);

  meter.say('  the timers');
  // 4. The timers, three runs each with the mail above stored (what a run costs when nothing is due).
  const TIMER_RUNS = 3;
  const t0 = snapshot();
  const tl0 = meter.read();
  for (const timer of TIMERS) {
    const { handler } = (await import(resolve(import.meta.dirname, '../functions', `${timer.entry}.ts`))) as {
      handler: (e: unknown, c: unknown) => Promise<unknown>;
    };
    for (let i = 0; i < TIMER_RUNS; i++) {
      const started = performance.now();
      await handler(
        { source: 'local.timer', 'detail-type': 'Scheduled Event', time: new Date().toISOString() },
        lambdaContext(timer.name, 60_000),
      );
      countInvocation(deps.counters, performance.now() - started);
    }
  }
  const tl1 = meter.read();
  const timerUnits = perUnit(
    delta(t0),
    { bytes: tl1.bytes - tl0.bytes, events: tl1.events - tl0.events },
    TIMERS.length * TIMER_RUNS,
    0,
  );
  meter.stop();

  const fixed: FixedShape = {
    functionMemoryGb: shape.functionMemoryMb / 1024,
    platformLogLines: shape.platformLogLines,
    alarms: shape.alarms,
    dashboards: shape.dashboards,
    secrets: shape.secrets,
    customMetrics: meter.metrics().length,
    polledQueues: shape.polledQueues,
    timerRunsPerMonth: shape.timerRunsPerMonth,
    timerRun: timerUnits,
    relay: shape.relay,
  };

  const money = (d: number) => (d >= 100 ? `$${d.toFixed(0)}` : d >= 1 ? `$${d.toFixed(2)}` : `$${d.toFixed(4)}`);
  const units = (u: UnitCounts) =>
    `${u.apiRequests.toFixed(2)} API requests, ${u.lambdaInvocations.toFixed(2)} Lambda invocations (${u.lambdaBilledMs.toFixed(0)} ms billed at ${shape.functionMemoryMb} MB), ` +
    `DynamoDB ${u.ddbWriteUnits.toFixed(2)} write / ${u.ddbReadUnits.toFixed(2)} read units, ${u.sqsRequests.toFixed(2)} SQS requests, ${u.snsNotifications.toFixed(2)} SNS notifications, ` +
    `${u.s3Puts.toFixed(2)} S3 puts / ${u.s3Gets.toFixed(2)} gets, ${Math.round(u.logBytes)} log bytes in ${u.logEvents.toFixed(1)} lines${shape.platformLogLines ? ` (+ Lambda's own ${u.lambdaInvocations.toFixed(1)} x 3 lines)` : ''}`;
  const oldest = Object.values(prices.prices)
    .map((p) => p.read)
    .sort()[0];
  print();
  print(
    `mailstack cost model: ${prices.region} list prices (${args.prices}, read ${oldest}), no free tier; SES plan ${SES_PLAN} (${sesPlan.plan}: $${sesPlan.perThousandRecipients} per 1,000 recipients, $${sesPlan.perMonth} a month; --ses-plan)`,
  );
  print(
    `per email (${EMAILS}: POST /emails, send worker, Send + Delivery events back, one webhook delivery; ${perEmail.sesRecipients} recipient each, its row as products send it: addresses with names, reply-to, subject, 3 tags, a header):`,
  );
  print(`  ${units(perEmail)}`);
  print(
    `  DynamoDB write units per email by command and item: ${emailWrites
      .filter(([, u]) => u / EMAILS >= 0.05)
      .map(([k, u]) => `${k} ${(u / EMAILS).toFixed(1)}`)
      .join('; ')}`,
  );
  print(
    `per HTML email (${HTML_EMAILS}, the same life, ${HTML_KB} KB of HTML and a text part a tenth of it, ${perHtmlEmail.sesRecipients} recipients: to and a bcc):`,
  );
  print(`  ${units(perHtmlEmail)}`);
  print(
    `  DynamoDB write units per HTML email by command and item: ${htmlWrites
      .filter(([, u]) => u / HTML_EMAILS >= 0.05)
      .map(([k, u]) => `${k} ${(u / HTML_EMAILS).toFixed(1)}`)
      .join('; ')}`,
  );
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  print(
    `  a send job (the send worker, first table request to last, the SES call between): p50 ${median(emailSendJobs.map((j) => j.ms)).toFixed(0)} ms here, ${median(emailSendJobs.map((j) => j.requests))} table requests in ${median(emailSendJobs.map((j) => j.stages))} round trips in sequence (mailstack:sendMsPerEmail, default 250, is this on AWS: each round trip about 10 ms, SES's answer about 100)`,
  );
  print(`per broadcast recipient (${RECIPIENTS}, create + send amortized, one webhook delivery each):`);
  print(`  ${units(perRecipient)}`);
  print(
    `per automation run (${RECIPIENTS}: POST /events/send, the run's trigger and send_email steps, its email's whole life and one webhook delivery):`,
  );
  print(`  ${units(perRun)}`);
  print(
    `per timer run (${TIMERS.length} timers, ${Math.round(shape.timerRunsPerMonth).toLocaleString('en')} runs a month): ${units(timerUnits)}`,
  );
  print(`custom metrics from the functions' embedded-metric lines: ${meter.metrics().join(', ') || 'none'}`);
  print();
  // As deployed by default: relay and tracing off; each opt-in priced apart.
  const tracing = shape.tracing;
  const scenarios = VOLUMES.map((n) => ({
    n,
    off: monthlyCost(n, perEmail, fixed, prices, { relay: false, tracing, sesPlan: SES_PLAN }),
    on: monthlyCost(n, perEmail, fixed, prices, { relay: true, tracing, sesPlan: SES_PLAN }),
    traced: monthlyCost(n, perEmail, fixed, prices, { relay: false, tracing: true, sesPlan: SES_PLAN }),
    html: monthlyCost(n, perHtmlEmail, fixed, prices, { relay: false, tracing, sesPlan: SES_PLAN }),
    broadcast: monthlyCost(n, perRecipient, fixed, prices, { relay: false, tracing, sesPlan: SES_PLAN }),
    automated: monthlyCost(n, perRun, fixed, prices, { relay: false, tracing, sesPlan: SES_PLAN }),
    plans: SES_PLANS.map((plan) => monthlyCost(n, perEmail, fixed, prices, { relay: false, tracing, sesPlan: plan })),
  }));
  const head = (label: string) =>
    `${label.padEnd(44)}${VOLUMES.map((n) => `${(n >= 1e6 ? `${n / 1e6} M` : `${n / 1e3} k`).padStart(8)}/mo`).join('')}`;
  const row = (label: string, values: number[]) =>
    `${label.padEnd(44)}${values.map((v) => money(v).padStart(11)).join('')}`;
  print(
    `as deployed by default: SMTP relay off, X-Ray tracing ${tracing ? 'on' : 'off'} (mailstack:smtpRelay, mailstack:tracing)`,
  );
  print(head('dollars a month'));
  for (const [i, line] of scenarios[0]!.off.variable.entries())
    print(
      row(
        `  ${line.name}`,
        scenarios.map((s) => s.off.variable[i]!.dollars),
      ),
    );
  print(
    row(
      '  variable total',
      scenarios.map((s) => s.off.variableTotal),
    ),
  );
  print('fixed a month (relay off)');
  for (const line of scenarios[0]!.off.fixed)
    print(
      row(
        `  ${line.name}`,
        scenarios.map((s) => s.off.fixed.find((l) => l.name === line.name)!.dollars),
      ),
    );
  print(
    row(
      '  fixed total, relay off',
      scenarios.map((s) => s.off.fixedTotal),
    ),
  );
  print('with the SMTP relay on (mailstack:smtpRelay), also');
  for (const line of scenarios[0]!.on.fixed.filter((l) => !scenarios[0]!.off.fixed.some((o) => o.name === l.name)))
    print(
      row(
        `  ${line.name}`,
        scenarios.map((s) => s.on.fixed.find((l) => l.name === line.name)!.dollars),
      ),
    );
  print(
    row(
      '  fixed total, relay on',
      scenarios.map((s) => s.on.fixedTotal),
    ),
  );
  print();
  print(head('dollars per 1,000 emails'));
  print(
    row(
      `  variable (SES ${SES_PLAN}: $${sesPlan.perThousandRecipients} per 1,000 recipients)`,
      scenarios.map((s) => s.off.per1000.variable),
    ),
  );
  print(
    row(
      '  fixed, amortized, relay off',
      scenarios.map((s) => s.off.per1000.fixed),
    ),
  );
  print(
    row(
      '  all in, relay off',
      scenarios.map((s) => s.off.per1000.allIn),
    ),
  );
  print(
    row(
      '    of which AWS beyond SES',
      scenarios.map((s) => s.off.per1000.beyondSes),
    ),
  );
  print(
    row(
      '  all in, relay on',
      scenarios.map((s) => s.on.per1000.allIn),
    ),
  );
  if (!tracing)
    print(
      row(
        '  all in, relay off, X-Ray tracing on',
        scenarios.map((s) => s.traced.per1000.allIn),
      ),
    );
  print(
    row(
      `  ${HTML_KB} KB HTML emails, all in, relay off`,
      scenarios.map((s) => s.html.per1000.allIn),
    ),
  );
  print(
    row(
      '  broadcast recipients, all in, relay off',
      scenarios.map((s) => s.broadcast.per1000.allIn),
    ),
  );
  print(
    row(
      '  automation emails, all in, relay off',
      scenarios.map((s) => s.automated.per1000.allIn),
    ),
  );
  print(
    `the same email, all in, relay off, at each SES pricing plan (per 1,000 recipients, + a month; ${prices.region}, first tier):`,
  );
  for (const [i, plan] of SES_PLANS.entries())
    print(
      row(
        `  ${plan} ($${prices.sesPlans[plan].perThousandRecipients}, +$${prices.sesPlans[plan].perMonth})`,
        scenarios.map((s) => s.plans[i]!.per1000.allIn),
      ),
    );
  // Storage: what a month's mail leaves in the table and its indexes, billed every month it is kept.
  const storage = (perEmail: number) =>
    VOLUMES.map((n) => ((n * perEmail) / 1024 ** 3) * prices.prices.dynamoDbPerGbMonthStored.value);
  print();
  print(
    `stored per email in the table and its indexes (the 30-day logs and webhook deliveries counted as kept): ${(storedPerEmail / 1024).toFixed(1)} KB, ${(storedPerHtmlEmail / 1024).toFixed(1)} KB for a ${HTML_KB} KB HTML one; emails are kept until deleted`,
  );
  print(head('a month of mail, kept, adds a month'));
  print(row('  short text emails', storage(storedPerEmail)));
  print(row(`  ${HTML_KB} KB HTML emails`, storage(storedPerHtmlEmail)));
  const at1m = scenarios[1]!.off.per1000;
  const at100k = scenarios[0]!.off.per1000;
  print();
  print(
    `goal at 1 M a month, relay off: <= $0.11 all in (<= $0.01 beyond SES): ${money(at1m.allIn)} (${money(at1m.beyondSes)} beyond SES): ${at1m.allIn <= 0.11 ? 'met' : 'NOT met'}`,
  );
  print(`goal at 100 k a month: < $0.40 all in: ${money(at100k.allIn)}: ${at100k.allIn < 0.4 ? 'met' : 'NOT met'}`);
} catch (error) {
  meter.stop();
  print(meter.held());
  throw error;
} finally {
  meter.stop();
  dynamo.destroy();
  await host.stop();
  receiver.closeAllConnections();
  receiver.close();
}
