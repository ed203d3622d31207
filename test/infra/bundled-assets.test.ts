/**
 * What AWS runs: `cdk synth` once (offline, no credentials), then every synthesized Lambda bundle
 * staged alone with only the AWS SDK beside it, imported in a plain Node process and invoked with
 * a representative event against this run's local engines. A dependency esbuild left out of a
 * bundle fails here as it fails on Lambda.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stageBundles, runtimeProvidedPackages, type StagedFunction } from '../../lib/local/bundles.ts';
import { local } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { REST_ROUTES } from '../../functions/routes.ts';
import { mailboxTeam } from '../support/mailboxes.ts';
import { testDeps } from '../support/local.ts';
import { INBOUND_RAW_PREFIX } from '@mailstack/core/content-keys';
import { listReceivedMessages } from '@mailstack/core/domain/mailboxes/read-messages';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const DRIVER = resolve(ROOT, 'test/support/invoke-bundles.mjs');

interface Invocation {
  readonly name: string;
  readonly file: string;
  readonly event: unknown;
}
interface Outcome {
  readonly name: string;
  readonly ok: boolean;
  readonly result?: any;
  readonly error?: string;
}

/** An API Gateway v2 (HTTP API) event, as API Gateway delivers it. */
const apiEvent = (
  method: string,
  path: string,
  routeKey: string,
  options: { key?: string; body?: unknown; params?: Record<string, string>; host?: string } = {},
) => ({
  version: '2.0',
  routeKey: `${method} ${routeKey}`,
  rawPath: path,
  rawQueryString: '',
  headers: {
    host: options.host ?? 'api.example.com',
    'x-forwarded-proto': 'https',
    'user-agent': 'bundle-test',
    ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
    ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
  },
  ...(options.params ? { pathParameters: options.params } : {}),
  requestContext: {
    accountId: '000000000000',
    apiId: 'test',
    domainName: 'api.example.com',
    domainPrefix: 'api',
    http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bundle-test' },
    requestId: randomUUID(),
    routeKey: `${method} ${routeKey}`,
    stage: '$default',
    time: new Date().toUTCString(),
    timeEpoch: Date.now(),
  },
  ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  isBase64Encoded: false,
});

const sqsEvent = (queue: string, bodies: unknown[]) => ({
  Records: bodies.map((body) => ({
    messageId: randomUUID(),
    receiptHandle: 'r',
    body: JSON.stringify(body),
    attributes: { ApproximateReceiveCount: '1' },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${queue}`,
    awsRegion: 'us-east-1',
  })),
});

const invoke = (invocations: Invocation[]): Outcome[] => {
  const { NODE_OPTIONS: _ignored, ...inherited } = process.env;
  const run = spawnSync(process.execPath, [DRIVER], {
    input: JSON.stringify({ invocations }),
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 256 * 1024 * 1024,
    env: { ...inherited, ...local().env },
  });
  const line = run.stdout.split('\n').find((l) => l.startsWith('RESULTS '));
  if (!line) throw new Error(`the bundle driver printed no results (exit ${run.status}): ${run.stderr}`);
  return JSON.parse(line.slice('RESULTS '.length)).results;
};

describe('synthesized Lambda bundles', () => {
  const out = mkdtempSync(join(tmpdir(), 'cdk-out-'));
  let staged: { dir: string; functions: StagedFunction[] };
  let synth: { status: number | null; stderr: string };

  beforeAll(() => {
    const env = {
      ...process.env,
      AWS_ACCESS_KEY_ID: '',
      AWS_SECRET_ACCESS_KEY: '',
      AWS_PROFILE: 'none',
      AWS_EC2_METADATA_DISABLED: 'true',
    };
    // The relay is opt-in: on here, so its image's build context is staged and checked too.
    synth = spawnSync('npx', ['cdk', 'synth', '--quiet', '--output', out, '-c', 'mailstack:smtpRelay=true'], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      timeout: 480_000,
    });
    if (synth.status === 0) staged = stageBundles(out, ROOT);
  }, 540_000);

  afterAll(() => {
    rmSync(out, { recursive: true, force: true });
    if (staged) rmSync(staged.dir, { recursive: true, force: true });
  });

  it('synthesizes the app offline with no AWS credentials', () => {
    expect(synth.status, synth.stderr).toBe(0);
    const template = JSON.parse(readFileSync(join(out, 'Mailstack.template.json'), 'utf8'));
    expect(Object.values<any>(template.Resources).some((r) => r.Type === 'AWS::ApiGatewayV2::Api')).toBe(true);
    expect(readdirSync(out).some((f) => f.startsWith('asset.'))).toBe(true);
    // The relay image is staged (its build context), not built: no Docker needed offline.
    const manifest = JSON.parse(readFileSync(join(out, 'Mailstack.assets.json'), 'utf8'));
    const images = Object.values<any>(manifest.dockerImages ?? {});
    expect(images).toHaveLength(1);
    expect(images[0].source).toMatchObject({ dockerFile: 'functions/smtp/Dockerfile', platform: 'linux/arm64' });
    const context = join(out, images[0].source.directory);
    expect(existsSync(join(context, 'functions/smtp/Dockerfile'))).toBe(true);
    expect(existsSync(join(context, 'layers/core/src'))).toBe(true);
    expect(existsSync(join(context, 'node_modules'))).toBe(false);
  });

  it('stages each bundle with only the runtime-provided SDK beside it', () => {
    const provided = runtimeProvidedPackages(ROOT);
    expect(provided).toContain('@aws-sdk/client-dynamodb');
    for (const own of ['valibot', '@middy/core', '@aws-lambda-powertools/logger', '@aws-lambda-powertools/metrics'])
      expect(provided).not.toContain(own);
    expect(existsSync(join(staged.dir, 'node_modules', 'valibot'))).toBe(false);
    expect(existsSync(join(staged.dir, 'node_modules', '@aws-sdk', 'client-secrets-manager'))).toBe(true);
    expect(staged.functions.length).toBeGreaterThanOrEqual(17);
  });

  it('runs every bundle on a representative event against the local engines', async () => {
    const t = await sendingTeam();
    const accepted = await t.resend.emails.send({
      from: t.from,
      to: 'delivered@resend.dev',
      subject: 'bundle',
      text: 'hello',
    });
    expect(accepted.error).toBeNull();
    // A Delivery event for that email as SNS puts it on the provider-events queue, and one from a foreign topic.
    const notification = (topicArn: string) => ({
      Type: 'Notification',
      MessageId: randomUUID(),
      TopicArn: topicArn,
      Timestamp: new Date().toISOString(),
      Message: JSON.stringify({
        eventType: 'Delivery',
        mail: { messageId: `bundle-${randomUUID()}`, tags: { team_id: [t.team.id], email_id: [accepted.data!.id] } },
        delivery: {},
      }),
    });
    const providerEvents = sqsEvent('provider-events', [
      notification(local().env.SES_EVENTS_TOPIC_ARN!),
      notification('arn:aws:sns:us-east-1:999999999999:someone-else'),
    ]);

    // An inbound message as SES receiving hands it over: the raw copy under inbound/, then the
    // Lambda event naming it, for a mailbox and for an address no mailbox has.
    const mt = await mailboxTeam();
    const mailbox = await mt.mailbox('bundle');
    const sesMessageId = `bundle${randomUUID().replaceAll('-', '')}`;
    await testDeps().content.put(
      `${INBOUND_RAW_PREFIX}${sesMessageId}`,
      Buffer.from(
        `From: sender@customer.example.org\r\nTo: ${mailbox.address}\r\nSubject: Through SES\r\nMessage-ID: <${sesMessageId}@customer.example.org>\r\n\r\nHello from SES\r\n`,
      ),
    );
    const verdict = (status: string) => ({ status });
    const sesReceipt = {
      Records: [
        {
          eventSource: 'aws:ses',
          eventVersion: '1.0',
          ses: {
            mail: {
              timestamp: new Date().toISOString(),
              source: 'sender@customer.example.org',
              messageId: sesMessageId,
              destination: [mailbox.address, `nobody@${mt.domain}`],
              headersTruncated: false,
              headers: [],
              commonHeaders: {
                returnPath: 'sender@customer.example.org',
                from: ['sender@customer.example.org'],
                to: [mailbox.address],
                messageId: `<${sesMessageId}@customer.example.org>`,
                subject: 'Through SES',
              },
            },
            receipt: {
              timestamp: new Date().toISOString(),
              processingTimeMillis: 120,
              recipients: [mailbox.address, `nobody@${mt.domain}`],
              spamVerdict: verdict('PASS'),
              virusVerdict: verdict('PASS'),
              spfVerdict: verdict('PASS'),
              dkimVerdict: verdict('GRAY'),
              dmarcVerdict: verdict('PASS'),
              dmarcPolicy: 'none',
              action: {
                type: 'Lambda',
                functionArn: 'arn:aws:lambda:us-east-1:000000000000:function:receive-mail',
                invocationType: 'Event',
              },
            },
          },
        },
      ],
    };

    const events: Record<string, unknown> = {
      'Inbound/receive-mail': sesReceipt,
      'Functions/receiving': apiEvent('GET', '/emails/receiving', '/emails/receiving', { key: mt.secret }),
      'Functions/domains': apiEvent('GET', '/domains', '/domains', { key: t.secret }),
      'Functions/usage': apiEvent('GET', '/usage', '/usage', { key: t.secret }),
      'Functions/emails': apiEvent('POST', '/emails', '/emails', {
        key: t.secret,
        body: { from: t.from, to: 'delivered@resend.dev', subject: 'from the bundle', text: 'hi' },
      }),
      'Functions/contacts': apiEvent('POST', '/contacts', '/contacts', {
        key: t.secret,
        body: { email: 'bundle@example.com' },
      }),
      'Functions/segments': apiEvent('GET', '/segments', '/segments', { key: t.secret }),
      'Functions/contact-properties': apiEvent('GET', '/contact-properties', '/contact-properties', { key: t.secret }),
      'Functions/topics': apiEvent('GET', '/topics', '/topics', { key: t.secret }),
      'Functions/automations': apiEvent('GET', '/automations', '/automations', { key: t.secret }),
      'Functions/suppressions': apiEvent('GET', '/suppressions', '/suppressions', { key: t.secret }),
      'Functions/preferences': apiEvent('GET', '/preferences/not-a-token', '/preferences/{token}', {
        params: { token: 'not-a-token' },
      }),
      'Functions/openapi': apiEvent('GET', '/openapi.json', '/openapi.json'),
      'Functions/api-keys': apiEvent('POST', '/api-keys', '/api-keys', { key: t.secret, body: { name: 'bundle' } }),
      'Functions/unmatched': {
        ...apiEvent('GET', '/no-such-thing', '/no-such-thing', { key: t.secret }),
        routeKey: '$default',
      },
      'Functions/templates': apiEvent('POST', '/templates', '/templates', {
        key: t.secret,
        body: { name: 'bundle', html: '<p>Hi {{{NAME|there}}}</p>' },
      }),
      'Functions/broadcasts': apiEvent('GET', '/broadcasts', '/broadcasts', { key: t.secret }),
      // A fan-out step and a send job for a broadcast that does not exist: each bundle loads, reads the table and lets it go.
      'Workers/broadcast-fanout': sqsEvent('fanout', [{ teamId: t.team.id, broadcastId: randomUUID() }]),
      'Workers/send-broadcast-email': sqsEvent('broadcast', [{ teamId: t.team.id, emailId: randomUUID() }]),
      'Functions/webhooks': apiEvent('GET', '/webhooks', '/webhooks', { key: t.secret }),
      'Functions/logs': apiEvent('GET', '/logs', '/logs', { key: t.secret }),
      'Functions/inboxes': apiEvent('GET', '/inboxes', '/inboxes', { key: t.secret }),
      'Workers/record-request-logs': sqsEvent('request-logs', [
        {
          id: randomUUID(),
          team_id: t.team.id,
          created_at: new Date().toISOString(),
          method: 'GET',
          endpoint: '/logs',
          response_status: 200,
          user_agent: null,
          request_body: null,
          response_body: null,
        },
      ]),
      'Functions/tracking': apiEvent('GET', '/t/c/not-a-token', '/t/c/{token}', { params: { token: 'not-a-token' } }),
      'Functions/oauth': apiEvent(
        'GET',
        '/.well-known/oauth-authorization-server',
        '/.well-known/oauth-authorization-server',
      ),
      // An API key on the MCP server: the 401 challenge (the bundle loads the MCP SDK and every tool).
      // The MCP endpoint answers only at the service's own address (its Host check): the local host's here.
      'Functions/mcp': apiEvent('POST', '/mcp', '/mcp', {
        key: t.secret,
        body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        host: new URL(local().baseUrl).host,
      }),
      // An event with no endpoint subscribed, and a delivery job for an endpoint that does not exist: each bundle loads, reads the table and lets it go.
      'Functions/dashboard': { ...apiEvent('GET', '/sign-in', '/sign-in'), routeKey: '$default' },
      'Workers/fan-out-events': sqsEvent('events', [{ eventId: randomUUID(), teamId: t.team.id, type: 'email.sent' }]),
      'Workers/deliver-webhooks': sqsEvent('webhooks', [
        { teamId: t.team.id, webhookId: randomUUID(), eventId: randomUUID() },
      ]),
      'Timers/sweep-undispatched-events': {
        source: 'aws.events',
        'detail-type': 'Scheduled Event',
        time: new Date().toISOString(),
      },
      'Workers/erase-history': sqsEvent('erase', [{ teamId: t.team.id, jobId: randomUUID() }]),
      'Workers/run-automations': sqsEvent('automations', [
        { kind: 'step', teamId: t.team.id, automationId: randomUUID(), runId: randomUUID(), n: 1 },
      ]),
      'Timers/release-parked-emails': {
        source: 'aws.events',
        'detail-type': 'Scheduled Event',
        time: new Date().toISOString(),
      },
      'Timers/sync-inbound-recipients': {
        source: 'aws.events',
        'detail-type': 'Scheduled Event',
        time: new Date().toISOString(),
      },
      'Timers/resume-erase-jobs': {
        source: 'aws.events',
        'detail-type': 'Scheduled Event',
        time: new Date().toISOString(),
      },
      'Workers/send-email': sqsEvent('send', [{ teamId: t.team.id, emailId: accepted.data!.id }]),
      // The same email's job as it comes back on the later queue: one of the two sends it, the other finds it claimed or sent.
      'Workers/send-email-later': sqsEvent('send-later', [{ teamId: t.team.id, emailId: accepted.data!.id }]),
      'Workers/receive-provider-events': providerEvents,
      'Timers/sweep-stuck-emails': {
        source: 'aws.events',
        'detail-type': 'Scheduled Event',
        time: new Date().toISOString(),
      },
    };
    const missing = staged.functions.map((f) => `${f.group}/${f.name}`).filter((n) => !(n in events));
    expect(missing, 'each synthesized function needs a representative event here').toEqual([]);

    const results = invoke(
      staged.functions.map((f) => ({
        name: `${f.group}/${f.name}`,
        file: f.file,
        event: events[`${f.group}/${f.name}`],
      })),
    );
    const byName = new Map(results.map((r) => [r.name, r]));
    const result = (name: string) => {
      const found = byName.get(name);
      if (!found) throw new Error(`no result for ${name}`);
      return found.result;
    };
    for (const r of results) expect(r.ok, `${r.name}: ${r.error}`).toBe(true);

    const expectedStatus: Record<string, number> = {
      'Functions/contacts': 201,
      'Functions/templates': 201,
      'Functions/preferences': 404,
      'Functions/tracking': 404,
      'Functions/api-keys': 403,
      'Functions/unmatched': 404,
      'Functions/mcp': 401,
    };
    for (const f of staged.functions.filter((f) => f.group === 'Functions')) {
      const name = `${f.group}/${f.name}`;
      const { statusCode, body } = result(name);
      expect({ name, status: statusCode, body: statusCode >= 300 ? body : '' }).toEqual({
        name,
        status: expectedStatus[name] ?? 200,
        body: expect.any(String),
      });
    }
    expect(JSON.parse(result('Functions/emails').body).id).toMatch(/^[0-9a-f-]{36}$/);
    // the foreign topic's record fails (and would wait in the DLQ); the other is applied
    expect(result('Workers/receive-provider-events')).toEqual({
      batchItemFailures: [{ itemIdentifier: providerEvents.Records[1]!.messageId }],
    });
    expect(result('Workers/send-email')).toEqual({ batchItemFailures: [] });
    expect(result('Workers/send-email-later')).toEqual({ batchItemFailures: [] });
    expect(result('Workers/send-broadcast-email')).toEqual({ batchItemFailures: [] });
    expect(result('Workers/broadcast-fanout')).toEqual({ batchItemFailures: [] });
    expect(result('Workers/fan-out-events')).toEqual({ batchItemFailures: [] });
    expect(result('Workers/deliver-webhooks')).toEqual({ batchItemFailures: [] });
    expect(result('Timers/sweep-undispatched-events')).toMatchObject({ requeued: expect.any(Number) });
    expect(result('Timers/sweep-stuck-emails')).toMatchObject({ requeued: expect.any(Number) });
    expect(result('Timers/release-parked-emails')).toMatchObject({ released: expect.any(Number) });
    expect(result('Timers/resume-erase-jobs')).toMatchObject({ resumed: expect.any(Number) });
    // The local engines keep no receipt rule: the bundle loads and finds none to keep.
    expect(result('Timers/sync-inbound-recipients')).toEqual({ rule: false });
    expect(result('Workers/erase-history')).toEqual({ batchItemFailures: [] });
    expect(result('Workers/record-request-logs')).toEqual({ batchItemFailures: [] });
    expect(result('Workers/run-automations')).toEqual({ batchItemFailures: [] });
    expect(result('Inbound/receive-mail')).toEqual({ stored: 1, dropped: 1 });
    expect(JSON.parse(result('Functions/receiving').body)).toMatchObject({ object: 'list', has_more: false });
    expect(JSON.parse(result('Functions/automations').body)).toMatchObject({ object: 'list', has_more: false });
    const [received] = (await listReceivedMessages(testDeps(), mt.team.id, { limit: 10 })).items;
    expect(received).toMatchObject({
      mailboxId: mailbox.id,
      subject: 'Through SES',
      verdicts: { spam: 'PASS', virus: 'PASS', spf: 'PASS', dkim: 'GRAY', dmarc: 'PASS' },
    });
    expect(JSON.parse(result('Functions/api-keys').body)).toMatchObject({ name: 'forbidden' });
    expect(JSON.parse(result('Functions/unmatched').body)).toMatchObject({ statusCode: 404 });
    expect(result('Functions/mcp').headers['www-authenticate']).toMatch(
      /^Bearer resource_metadata="https?:\/\/[^"]+\/\.well-known\/oauth-protected-resource", error="invalid_token"/,
    );
    expect(JSON.parse(result('Functions/webhooks').body)).toMatchObject({ object: 'list' });
    expect(JSON.parse(result('Functions/oauth').body)).toMatchObject({
      code_challenge_methods_supported: ['S256'],
      registration_endpoint: expect.stringMatching(/\/oauth\/register$/),
    });
    expect(result('Workers/fan-out-events')).toEqual({ batchItemFailures: [] });
    expect(result('Workers/deliver-webhooks')).toEqual({ batchItemFailures: [] });
    // The dashboard bundle renders its sign-in page with its security headers.
    expect(result('Functions/dashboard').body).toContain('Sign in to mailstack');
    expect(result('Functions/dashboard').headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    // The openapi bundle serves the whole description: its dynamic import of the generator and every area is bundled in.
    const doc = JSON.parse(result('Functions/openapi').body);
    expect(doc.servers).toEqual([{ url: 'https://api.example.com' }]);
    expect(Object.values<any>(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0)).toBe(REST_ROUTES.length);
  }, 120_000);
});
