/**
 * Every AWS call granted, and only those: each function of the stack is bundled as the stack
 * bundles it (esbuild, ESM, `@aws-sdk/*` external, tree-shaken), its text is read for the calls
 * that reach AWS (the ports' methods and the SDK commands behind them), and the IAM actions those
 * need are held against what the synthesized template grants the function's role, both ways: a
 * call without a grant fails, and so does a grant no call of the function uses (the deliberate
 * exceptions are listed below with their reason). Resources too: the table and its indexes, the
 * content bucket's prefixes, each queue, the schedule group, the SES identity and configuration set.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { build } from 'esbuild';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MailStack } from '../../lib/mail-stack.ts';
import { readStackConfig } from '../../lib/config.ts';
import { AREAS, UNMATCHED_ENTRY } from '../../functions/routes.ts';
import { QUEUES, SCHEDULED_QUEUES, TIMERS, WORKERS, type QueueName } from '../../functions/workers.ts';
import { CONTENT_KEY_PREFIX, INBOUND_RAW_PREFIX, MAILBOX_CONTENT_PREFIX } from '@mailstack/core/content-keys';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');

/**
 * The ways the code reaches AWS: a call as it reads in a bundle (port methods keep their names
 * through esbuild), the SDK commands it sends, and the IAM actions those need (AWS's service
 * authorization reference). One line per call: a new port method or SDK command is one entry.
 */
const CALLS: readonly { call: string; commands: readonly string[]; actions: readonly string[] }[] = [
  { call: '.tableStore.get(', commands: ['GetCommand'], actions: ['dynamodb:GetItem'] },
  { call: '.tableStore.put(', commands: ['PutCommand'], actions: ['dynamodb:PutItem'] },
  { call: '.tableStore.update(', commands: ['UpdateCommand'], actions: ['dynamodb:UpdateItem'] },
  { call: '.tableStore.delete(', commands: ['DeleteCommand'], actions: ['dynamodb:DeleteItem'] },
  { call: '.tableStore.query(', commands: ['QueryCommand'], actions: ['dynamodb:Query'] },
  { call: '.tableStore.batchGet(', commands: ['BatchGetCommand'], actions: ['dynamodb:BatchGetItem'] },
  { call: '.tableStore.batchWrite(', commands: ['BatchWriteCommand'], actions: ['dynamodb:BatchWriteItem'] },
  // TransactWriteItems has no IAM action of its own: each item is authorized as the write it holds
  // (table/ops.ts compiles puts, updates and deletes; no ConditionCheck).
  {
    call: '.tableStore.transactWrite(',
    commands: ['TransactWriteCommand'],
    actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
  },
  // Powertools' idempotency records (low-level client).
  {
    call: '.idempotency.forTeam(',
    commands: ['GetItemCommand', 'PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand'],
    actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
  },
  // SendMessageBatch is authorized as sqs:SendMessage.
  { call: '.queue.send(', commands: ['SendMessageBatchCommand'], actions: ['sqs:SendMessage'] },
  // A schedule names the scheduler's role: creating it passes that role. One due within the
  // scheduler's minute goes to its queue with a delay instead, replacing any schedule of its name
  // (adapters/aws/queue-delay-scheduler.ts): the queue itself is held below, by the code's queue names.
  {
    call: '.scheduler.schedule(',
    commands: ['CreateScheduleCommand', 'DeleteScheduleCommand', 'SendMessageBatchCommand'],
    actions: ['scheduler:CreateSchedule', 'iam:PassRole', 'scheduler:DeleteSchedule', 'sqs:SendMessage'],
  },
  { call: '.scheduler.cancel(', commands: ['DeleteScheduleCommand'], actions: ['scheduler:DeleteSchedule'] },
  {
    call: '.identities.create(',
    commands: ['CreateEmailIdentityCommand', 'PutEmailIdentityMailFromAttributesCommand'],
    // The identity is created with the stack's tag, which SES authorizes as TagResource too.
    actions: ['ses:CreateEmailIdentity', 'ses:PutEmailIdentityMailFromAttributes', 'ses:TagResource'],
  },
  { call: '.identities.get(', commands: ['GetEmailIdentityCommand'], actions: ['ses:GetEmailIdentity'] },
  { call: '.identities.remove(', commands: ['DeleteEmailIdentityCommand'], actions: ['ses:DeleteEmailIdentity'] },
  // A team's SES tenant (mailstack:sesTenants): made ready before its first send, with its own
  // tagged configuration set and reputation policy; read when SES pauses a send.
  {
    call: '.tenants.ensure(',
    commands: [
      'CreateConfigurationSetCommand',
      'CreateConfigurationSetEventDestinationCommand',
      'CreateTenantCommand',
      'CreateTenantResourceAssociationCommand',
      'GetTenantCommand',
      'UpdateReputationEntityPolicyCommand',
    ],
    actions: [
      'ses:CreateConfigurationSet',
      'ses:CreateConfigurationSetEventDestination',
      'ses:CreateTenant',
      'ses:CreateTenantResourceAssociation',
      'ses:GetTenant',
      'ses:TagResource',
      'ses:UpdateReputationEntityPolicy',
    ],
  },
  { call: '.tenants.paused(', commands: ['GetTenantCommand'], actions: ['ses:GetTenant'] },
  // The account's maximum send rate and sending state (GetAccount names no resource).
  { call: '.providerAccount.read(', commands: ['GetAccountCommand'], actions: ['ses:GetAccount'] },
  { call: '.mail.send(', commands: ['SendEmailCommand'], actions: ['ses:SendEmail'] },
  // The inbound receipt rule named for the held domains: read, then written back whole.
  {
    call: '.inboundRecipients.sync(',
    commands: ['DescribeReceiptRuleCommand', 'UpdateReceiptRuleCommand'],
    actions: ['ses:DescribeReceiptRule', 'ses:UpdateReceiptRule'],
  },
  { call: '.content.put(', commands: ['PutObjectCommand'], actions: ['s3:PutObject'] },
  { call: '.content.get(', commands: ['GetObjectCommand'], actions: ['s3:GetObject'] },
  { call: '.content.delete(', commands: ['DeleteObjectCommand'], actions: ['s3:DeleteObject'] },
  { call: '.linkKeys.current(', commands: ['GetSecretValueCommand'], actions: ['secretsmanager:GetSecretValue'] },
  { call: '.linkKeys.byId(', commands: ['GetSecretValueCommand'], actions: ['secretsmanager:GetSecretValue'] },
  { call: 'new InvokeCommand(', commands: ['InvokeCommand'], actions: ['lambda:InvokeFunction'] },
];

/** The SES actions that make and read a team's tenant (the `.tenants.` calls above). */
const TENANT_ACTIONS: ReadonlySet<string> = new Set(
  CALLS.filter((c) => c.call.startsWith('.tenants.')).flatMap((c) => c.actions),
);

/**
 * Grants no call of the function's code explains, each with its reason. `fn` is a function name
 * (area, worker, timer) or `*`.
 */
const EXTRA_GRANTS: readonly { fn: string; actions: readonly string[]; reason: string }[] = [
  {
    fn: '*',
    actions: [
      'sqs:ReceiveMessage',
      'sqs:DeleteMessage',
      'sqs:ChangeMessageVisibility',
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
    ],
    reason: "a worker's SQS event source mapping polls its own queue with the function's role",
  },
  {
    fn: 'receive-mail',
    actions: ['sqs:SendMessage'],
    reason: "Lambda puts a failed asynchronous invocation on the function's failure queue with its role",
  },
];

/** Calls a bundle holds that the function never makes, each with its reason. */
const UNREACHED_CALLS: readonly { fn: string; reason: string }[] = [
  {
    fn: 'openapi',
    reason:
      "its bundle holds every area's handlers to read their route declarations (functions/openapi/document.ts); its one route is public and makes no AWS call",
  },
];

/** Queues a function's code names without sending to them on AWS, each with its reason. */
const QUEUES_NAMED_NOT_SENT: readonly { fns: readonly string[]; queue: QueueName; reason: string }[] = [
  {
    fns: ['broadcasts', 'mcp', 'dashboard'],
    queue: 'broadcast',
    reason:
      "cancelling runs the canceled broadcast's fan-out step, which only counts; send jobs go out from the fan-out worker",
  },
  {
    fns: ['send-email', 'send-email-later'],
    queue: 'send',
    reason: 'a job comes back on the send-later queue, and on the send queue only where no send-later queue is set',
  },
  {
    fns: ['mcp'],
    queue: 'request-logs',
    reason: 'MCP is no REST area: it logs no requests, and an unset URL logs nothing',
  },
];

/** Each function of the stack: its construct id and its entry (relative to functions/, no extension). */
const ENTRIES: Readonly<Record<string, string>> = {
  ...Object.fromEntries(AREAS.map((area) => [area, `${area}/index`])),
  unmatched: UNMATCHED_ENTRY,
  dashboard: 'dashboard/index',
  'receive-mail': 'inbound/receive-mail',
  ...Object.fromEntries(WORKERS.map((w) => [w.name, w.entry])),
  ...Object.fromEntries(TIMERS.map((t) => [t.name, t.entry])),
};

/** The SDK commands a bundle imports (`import { XCommand, ... } from "@aws-sdk/..."`). */
const importedCommands = (text: string): string[] => [
  ...new Set(
    [...text.matchAll(/import\s*\{([^}]*)\}\s*from\s*"@aws-sdk\/[^"]+"/g)].flatMap((m) =>
      m[1]!
        .split(',')
        .map((part) => part.trim().split(/\s+as\s+/)[0]!)
        .filter((name) => name.endsWith('Command')),
    ),
  ),
];

/** Renders a template value (ARN, Ref, GetAtt, Join) as text: `{LogicalId.Arn}` for references. */
const render = (value: any): string => {
  if (typeof value === 'string') return value;
  if (value?.Ref) return `{${value.Ref}}`;
  if (value?.['Fn::GetAtt']) return `{${value['Fn::GetAtt'].join('.')}}`;
  if (value?.['Fn::Join']) return value['Fn::Join'][1].map(render).join(value['Fn::Join'][0]);
  return JSON.stringify(value);
};

describe('IAM grants against the calls of each bundled function', () => {
  /** Each function's bundle text, by construct id. */
  const bundles = new Map<string, string>();
  let template: Template;
  let resources: Record<string, any>;

  beforeAll(async () => {
    const result = await build({
      entryPoints: Object.fromEntries(
        Object.entries(ENTRIES).map(([name, entry]) => [name, resolve(ROOT, 'functions', `${entry}.ts`)]),
      ),
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      target: 'node22',
      outdir: join(ROOT, 'cdk.out', 'iam-grants'),
      external: ['@aws-sdk/*'],
      mainFields: ['module', 'main'],
      absWorkingDir: ROOT,
      logLevel: 'error',
    });
    for (const file of result.outputFiles) {
      const name = file.path.split('/').at(-1)!.replace(/\.js$/, '');
      bundles.set(name, file.text);
    }
    // Every opt-in that grants more is on (SES tenants), so each grant a call may need is in the template.
    const app = new App({
      context: {
        'aws:cdk:bundling-stacks': [],
        'aws:cdk:enable-path-metadata': true,
        'mailstack:sesTenants': true,
      },
    });
    const config = readStackConfig((k) => app.node.tryGetContext(k));
    const stack = new MailStack(app, config.stackName, { config });
    template = Template.fromStack(stack);
    resources = template.toJSON().Resources;
  }, 180_000);

  /** The logical id of a resource by its construct path's tail (e.g. `Queues/send`). */
  const logicalIdAt = (path: string): string => {
    const found = Object.entries(resources).filter(([, r]) =>
      String(r.Metadata?.['aws:cdk:path'] ?? '').endsWith(`/${path}/Resource`),
    );
    expect(found, path).toHaveLength(1);
    return found[0]![0];
  };

  /** The functions of the stack, by construct id, with their role's statements. */
  const functions = () =>
    Object.entries(resources)
      .filter(([, r]) => r.Type === 'AWS::Lambda::Function')
      .flatMap(([id, r]) => {
        const path = String(r.Metadata?.['aws:cdk:path'] ?? '').split('/');
        const name = path.at(-2)!;
        if (!ENTRIES[name] || !['Functions', 'Workers', 'Timers', 'Inbound'].includes(path.at(-3)!)) return [];
        const role = r.Properties.Role['Fn::GetAtt'][0];
        const statements = Object.values(resources)
          .filter((p) => p.Type === 'AWS::IAM::Policy' && p.Properties.Roles.some((x: any) => x.Ref === role))
          .flatMap((p) => p.Properties.PolicyDocument.Statement)
          .flatMap((s: any) =>
            [s.Action].flat().map((action: string) => ({ action, resources: [s.Resource].flat().map(render) })),
          );
        return [{ id, name, environment: r.Properties.Environment?.Variables ?? {}, statements }];
      });

  /** What a function's code calls: each call found in its bundle, with the commands and actions behind it. */
  const callsOf = (name: string) => {
    if (UNREACHED_CALLS.some((u) => u.fn === name)) return [];
    const text = bundles.get(name) ?? '';
    return CALLS.filter((c) => text.includes(c.call));
  };

  it('bundles every function of the stack', () => {
    const names = functions().map((f) => f.name);
    expect(names.sort()).toEqual(Object.keys(ENTRIES).sort());
    for (const name of names) expect(bundles.get(name)?.length, name).toBeGreaterThan(1000);
  });

  it('knows every SDK command a bundle imports (a new one needs its line in CALLS, with its IAM actions)', () => {
    const known = new Set(CALLS.flatMap((c) => c.commands));
    const unknown = [...bundles].flatMap(([name, text]) =>
      importedCommands(text)
        .filter((c) => !known.has(c))
        .map((c) => `${name}: ${c}`),
    );
    expect(unknown).toEqual([]);
  });

  it("grants each function's role every IAM action its calls need", () => {
    const missing = functions().flatMap((fn) => {
      const granted = new Set(fn.statements.map((s) => s.action));
      return callsOf(fn.name).flatMap((c) =>
        c.actions
          .filter((a) => !granted.has(a))
          .map((a) => `${fn.name}: ${c.call.replace(/^\./, '')}) (${c.commands.join(', ')}) needs ${a}, not granted`),
      );
    });
    expect(missing).toEqual([]);
  });

  it('grants no action a function does not use, beyond the listed exceptions', () => {
    const ignored = (action: string) => action.startsWith('logs:') || action.startsWith('xray:');
    const extra = functions().flatMap((fn) => {
      const used = new Set(callsOf(fn.name).flatMap((c) => c.actions));
      const allowed = new Set(EXTRA_GRANTS.filter((e) => e.fn === '*' || e.fn === fn.name).flatMap((e) => e.actions));
      return [...new Set(fn.statements.map((s) => s.action))]
        .filter((a) => !used.has(a) && !allowed.has(a) && !ignored(a))
        .map((a) => `${fn.name}: ${a} is granted, but no call of the function needs it`);
    });
    expect(extra).toEqual([]);
  });

  it('names only the resources each action needs: the table (and its indexes for Query), the content prefixes, the queues the code sends to', () => {
    const table = logicalIdAt('Data/Table');
    const bucket = logicalIdAt('Content/Bucket');
    const queueById = new Map(
      (Object.keys(QUEUES) as QueueName[]).map((name) => [`{${logicalIdAt(`Queues/${name}`)}.Arn}`, name]),
    );
    const prefixes = [CONTENT_KEY_PREFIX, MAILBOX_CONTENT_PREFIX, INBOUND_RAW_PREFIX].map(
      (p) => `{${bucket}.Arn}/${p}*`,
    );
    const wrong = functions().flatMap((fn) => {
      const text = bundles.get(fn.name) ?? '';
      return fn.statements.flatMap(({ action, resources: named }) => {
        const bad = (why: string) => [`${fn.name}: ${action} on ${named.join(', ')}: ${why}`];
        if (action.startsWith('dynamodb:')) {
          const allowed = [`{${table}.Arn}`, ...(action === 'dynamodb:Query' ? [`{${table}.Arn}/index/*`] : [])];
          return named.every((r) => allowed.includes(r)) ? [] : bad(`expected ${allowed.join(' and ')}`);
        }
        if (action.startsWith('s3:'))
          return named.every((r) => prefixes.includes(r)) ? [] : bad('expected objects under a content prefix');
        if (action === 'sqs:SendMessage' && fn.name !== 'receive-mail') {
          return named.flatMap((r) => {
            const queue = queueById.get(r);
            if (!queue) return bad(`${r} is not a work queue`);
            return text.includes(`.${QUEUES[queue].env}`)
              ? []
              : bad(`the code never sends to the ${queue} queue (${QUEUES[queue].env})`);
          });
        }
        if (action.startsWith('scheduler:'))
          return named.every((r) => r.endsWith(':schedule/Mailstack-schedules/*')) ? [] : bad('expected the group');
        // GetAccount reads the account and names no resource type: its grant can only be `*`.
        if (action === 'ses:GetAccount') return named.every((r) => r === '*') ? [] : bad('expected *');
        if (action === 'ses:SendEmail')
          return named.some((r) => r.endsWith(':identity/*')) &&
            named.some((r) => r.endsWith(':configuration-set/Mailstack-mail'))
            ? []
            : bad('SendEmail needs the identity and the configuration set it names');
        // A team's tenant and its configuration set are named with the stack's prefix; an
        // association names the team's identity, and the reputation policy is one SES owns.
        if (TENANT_ACTIONS.has(action))
          return named.every(
            (r) =>
              r.endsWith(':tenant/Mailstack-mail-*') ||
              r.endsWith(':configuration-set/Mailstack-mail-*') ||
              r.endsWith(':identity/*') ||
              r.endsWith(':aws:reputation-policy/*'),
          )
            ? []
            : bad(
                "expected the stack's tenants and their configuration sets, identities and SES's reputation policies",
              );
        if (action === 'ses:DescribeReceiptRule' || action === 'ses:UpdateReceiptRule')
          return named.every((r) =>
            /:receipt-rule-set\/Mailstack-inbound(:receipt-rule\/Mailstack-mailboxes)?$/.test(r),
          )
            ? []
            : bad("expected the stack's receipt rule set and its mailbox rule");
        if (action.startsWith('ses:'))
          return named.every((r) => r.endsWith(':identity/*')) ? [] : bad('expected identities only');
        return [];
      });
    });
    expect(wrong).toEqual([]);
    // Each table action names the table itself (an index alone answers no GetItem).
    const tableless = functions().flatMap((fn) =>
      [...new Set(fn.statements.map((s) => s.action).filter((a) => a.startsWith('dynamodb:')))]
        .filter((a) => !fn.statements.some((s) => s.action === a && s.resources.includes(`{${table}.Arn}`)))
        .map((a) => `${fn.name}: ${a} does not name the table`),
    );
    expect(tableless).toEqual([]);
    // Each queue the code sends to is granted.
    const unsent = functions().flatMap((fn) => {
      if (!callsOf(fn.name).some((c) => c.call === '.queue.send(')) return [];
      const text = bundles.get(fn.name) ?? '';
      const granted = new Set(
        fn.statements
          .filter((s) => s.action === 'sqs:SendMessage')
          .flatMap((s) => s.resources.map((r) => queueById.get(r))),
      );
      return (Object.keys(QUEUES) as QueueName[])
        .filter((q) => text.includes(`.${QUEUES[q].env}`) && !granted.has(q))
        .filter((q) => !QUEUES_NAMED_NOT_SENT.some((e) => e.queue === q && e.fns.includes(fn.name)))
        .map((q) => `${fn.name}: sends to the ${q} queue (${QUEUES[q].env}) without sqs:SendMessage on it`);
    });
    expect(unsent).toEqual([]);
  });

  it("lets the scheduler's role send only to the queues schedules target", () => {
    // Which queue each schedule in the code targets: its queueUrl, read from the source.
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
      );
    const targets = new Set<string>();
    for (const file of [...sources(join(ROOT, 'layers/core/src')), ...sources(join(ROOT, 'functions'))]) {
      const text = readFileSync(file, 'utf8');
      // The adapter that hands a schedule on (to the scheduler, or to its queue) targets what it is given.
      if (file.endsWith('adapters/aws/queue-delay-scheduler.ts')) continue;
      for (const m of text.matchAll(/scheduler\.schedule\(/g)) {
        const call = text.slice(m.index, m.index + 400);
        const env = /config\.([A-Z_]+_QUEUE_URL)/.exec(call)?.[1];
        const named = env
          ? (Object.keys(QUEUES) as QueueName[]).find((q) => QUEUES[q].env === env)
          : SCHEDULE_TARGETS_BY_FILE[file.slice(ROOT.length + 1)];
        expect(named, `the queue ${file} schedules to: add it to SCHEDULE_TARGETS_BY_FILE`).toBeDefined();
        targets.add(named!);
      }
    }
    expect([...targets].sort()).toEqual([...SCHEDULED_QUEUES].sort());
    const role = logicalIdAt('SchedulerRole');
    const sent = Object.values(resources)
      .filter((p) => p.Type === 'AWS::IAM::Policy' && p.Properties.Roles.some((x: any) => x.Ref === role))
      .flatMap((p) => p.Properties.PolicyDocument.Statement);
    expect([...new Set(sent.flatMap((s: any) => [s.Action].flat()))]).toEqual(['sqs:SendMessage']);
    const queues = sent.flatMap((s: any) => [s.Resource].flat().map(render));
    expect(queues.sort()).toEqual(SCHEDULED_QUEUES.map((q) => `{${logicalIdAt(`Queues/${q}`)}.Arn}`).sort());
  });
});

/** Schedules whose queueUrl is not a `config.<QUEUE>_URL` read at the call: the queue they target. */
const SCHEDULE_TARGETS_BY_FILE: Readonly<Record<string, QueueName>> = {
  'layers/core/src/domain/webhooks/deliver.ts': 'webhooks',
  'layers/core/src/domain/automations/step-actions.ts': 'automations',
};
