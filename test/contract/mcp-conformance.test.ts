/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, server scenarios of spec
 * 2025-11-25) against both MCP servers of the local host: the hosted server at /mcp (an OAuth
 * access token) and a mailbox's at /mcp/<mailbox id> (a mailbox key).
 *
 * The suite's client sends no credential, so it talks to each server through a reverse proxy on
 * another loopback port that adds the Authorization header, as a gateway in front of the service
 * would. The proxy presents the service's own address for its own (Host `localhost:<proxy>`
 * becomes the service's host, and an Origin naming the proxy the service's origin); any other
 * Host or Origin goes through unchanged, so the DNS-rebinding scenario's foreign ones reach the
 * server's own check. The suite needs Node 22: it runs on the `node` devDependency's binary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createGrant } from '@mailstack/core/domain/oauth/create-grant';
import { issueTokens } from '@mailstack/core/domain/oauth/tokens';
import { mcpResourceUrl } from '@mailstack/core/domain/oauth/index';
import { TOOL_SCOPES } from '../../functions/mcp/tool.ts';
import { local, ownLoopbackAddress, testDeps } from '../support/local.ts';
import { agentMailbox } from '../support/mailboxes.ts';
import { mcpHarness } from '../support/mcp.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const NODE_22 = resolve(ROOT, 'node_modules/node/bin/node');
const SUITE = resolve(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

/** The scenarios that test what these servers do: the handshake, ping, listing tools, and the DNS-rebinding guard. */
const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

/**
 * The suite's other server scenarios, and why they do not apply. Most call fixture tools,
 * prompts or resources of the suite's reference server (`test_simple_text`, `test_error_handling`,
 * ...) that a real server does not have; the rest need capabilities these servers do not declare.
 */
const NOT_APPLICABLE: Record<string, string> = {
  'logging-set-level': 'The servers declare no logging capability (they send no log notifications).',
  'completion-complete':
    'The servers declare no completions capability (no prompts or resource templates to complete).',
  'tools-call-simple-text': 'Calls the fixture tool test_simple_text.',
  'tools-call-image': 'Calls the fixture tool test_image_content; no tool answers images.',
  'tools-call-audio': 'Calls the fixture tool test_audio_content; no tool answers audio.',
  'tools-call-embedded-resource': 'Calls the fixture tool test_embedded_resource; no tool answers resources.',
  'tools-call-mixed-content': 'Calls the fixture tool test_multiple_content_types.',
  'tools-call-with-logging': 'Calls the fixture tool test_tool_with_logging; no logging capability.',
  'tools-call-error':
    'Calls the fixture tool test_error_handling (our refusals are isError results: mcp-server.test.ts).',
  'tools-call-with-progress':
    'Calls the fixture tool test_tool_with_progress; every tool answers in one JSON response.',
  'tools-call-sampling': 'Calls the fixture tool test_sampling; the servers never ask the client to sample.',
  'tools-call-elicitation': 'Calls the fixture tool test_elicitation; the servers never elicit.',
  'json-schema-2020-12':
    'Lists the fixture tool json_schema_2020_12_tool (our input and output schemas are 2020-12: mcp-output-schemas.test.ts).',
  'elicitation-sep1034-defaults': 'Calls the fixture tool test_elicitation_sep1034_defaults; the servers never elicit.',
  'elicitation-sep1330-enums': 'Calls the fixture tool test_elicitation_sep1330_enums; the servers never elicit.',
  'server-sse-polling':
    'Needs server-sent event streams: the servers are stateless and answer JSON (Lambda), GET is 405.',
  'server-sse-multiple-streams': 'Needs server-sent event streams and sessions: the servers are stateless, GET is 405.',
  'resources-list': 'The servers declare no resources.',
  'resources-read-text': 'The servers declare no resources.',
  'resources-read-binary': 'The servers declare no resources.',
  'resources-templates-read': 'The servers declare no resources.',
  'resources-subscribe': 'The servers declare no resources.',
  'resources-unsubscribe': 'The servers declare no resources.',
  'prompts-list': 'The servers declare no prompts.',
  'prompts-get-simple': 'The servers declare no prompts.',
  'prompts-get-with-args': 'The servers declare no prompts.',
  'prompts-get-embedded-resource': 'The servers declare no prompts.',
  'prompts-get-with-image': 'The servers declare no prompts.',
};

const run = promisify(execFile);
const suite = (args: string[]) =>
  run(NODE_22, [SUITE, ...args], { cwd: ROOT, timeout: 90_000, maxBuffer: 16 * 1024 * 1024 });

/** A reverse proxy on its own loopback port to `target` (the local host's path), adding `authorization`. */
const authorizingProxy = async (
  targetPath: string,
  authorization: string,
): Promise<{ url: string; server: Server }> => {
  const service = new URL(local().baseUrl);
  // From a loopback address of its own: what the suite's scenarios get refused is counted apart from other tests' requests.
  const localAddress = ownLoopbackAddress();
  const server = createServer((req, res) => {
    const port = (server.address() as AddressInfo).port;
    const own = [`localhost:${port}`, `127.0.0.1:${port}`];
    const headers = { ...req.headers, authorization };
    if (own.includes(headers.host ?? '')) headers.host = service.host;
    if (own.some((host) => headers.origin === `http://${host}`)) headers.origin = service.origin;
    const upstream = httpRequest(
      { host: service.hostname, port: service.port, method: req.method, path: targetPath, headers, localAddress },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      res.writeHead(502);
      res.end(String(error));
    });
    req.pipe(upstream);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://localhost:${(server.address() as AddressInfo).port}${targetPath}`, server };
};

/** Each scenario's checks, as the suite saved them under `dir`. */
const checksIn = (dir: string): Map<string, { id: string; status: string; errorMessage?: string }[]> => {
  const out = new Map<string, { id: string; status: string; errorMessage?: string }[]>();
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const file = join(path, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (name === 'checks.json')
        out.set(
          path
            .split('/')
            .pop()!
            .replace(/^server-/, '')
            .replace(/-\d{4}-\d{2}-\d{2}T.*$/, ''),
          JSON.parse(readFileSync(file, 'utf8')),
        );
    }
  };
  walk(dir);
  return out;
};

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((done) => s.close(done))));
});

let targets: { name: string; url: string }[] = [];
beforeAll(async () => {
  const d = testDeps();
  const agent = await mcpHarness().signIn([...TOOL_SCOPES], { connect: false });
  const grant = await createGrant(d, {
    teamId: agent.team.id,
    userId: agent.user.id,
    clientId: 'conformance',
    clientName: 'MCP conformance suite',
    clientLogoUri: null,
    scopes: [...TOOL_SCOPES],
    resource: mcpResourceUrl(d.config),
  });
  const { access_token } = await issueTokens(d, grant);
  const mailbox = await agentMailbox();
  const hosted = await authorizingProxy('/mcp', `Bearer ${access_token}`);
  const own = await authorizingProxy(`/mcp/${mailbox.m.id}`, `Bearer ${mailbox.sendKey}`);
  servers.push(hosted.server, own.server);
  targets = [
    { name: 'hosted', url: hosted.url },
    { name: 'mailbox', url: own.url },
  ];
}, 60_000);

describe('the MCP conformance suite (server scenarios, spec 2025-11-25)', () => {
  it('classifies every server scenario the suite has: applicable, or not with a reason', async () => {
    const { stdout } = await suite(['list', '--server', '--spec-version', '2025-11-25']);
    const scenarios = [...stdout.matchAll(/^\s+- ([\w-]+)/gm)].map((m) => m[1]!);
    expect(scenarios.length).toBeGreaterThan(10);
    expect(
      scenarios.filter((s) => !APPLICABLE.includes(s) && !(s in NOT_APPLICABLE)),
      'scenarios to classify',
    ).toEqual([]);
    expect(
      [...APPLICABLE, ...Object.keys(NOT_APPLICABLE)].filter((s) => !scenarios.includes(s)),
      'scenarios the suite no longer has',
    ).toEqual([]);
  }, 60_000);

  for (const target of ['hosted', 'mailbox']) {
    it(`passes every applicable scenario against the ${target} server`, async () => {
      const { url } = targets.find((t) => t.name === target)!;
      const dir = mkdtempSync(join(tmpdir(), `mcp-conformance-${target}-`));
      const outputs: string[] = [];
      for (const scenario of APPLICABLE) {
        const result = await suite(['server', '--url', url, '--scenario', scenario, '-o', dir]).catch(
          (error: { stdout: string; stderr: string }) => error,
        );
        outputs.push(`${scenario}:\n${result.stdout}${result.stderr}`);
      }
      const checks = checksIn(dir);
      expect([...checks.keys()].sort(), outputs.join('\n')).toEqual([...APPLICABLE].sort());
      const failed = [...checks].flatMap(([scenario, list]) =>
        list.filter((c) => c.status === 'FAILURE').map((c) => `${scenario} ${c.id}: ${c.errorMessage}`),
      );
      expect(failed, outputs.join('\n')).toEqual([]);
      expect([...checks.values()].flat().filter((c) => c.status === 'SUCCESS').length).toBeGreaterThanOrEqual(
        APPLICABLE.length,
      );
    }, 120_000);
  }
});
