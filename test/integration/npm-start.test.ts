import { describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../lib/local/ports.ts';
import { LINK_SECRET_FILE } from '../../lib/local/link-secret.ts';

const ROOT = join(import.meta.dirname, '../..');

/** Starts `npm start -- --memory` on `port`; resolves with the printed lines once the key line is out. */
/** The environment of a fresh shell: none of the settings the test run's own host uses. */
const cleanEnv = (): NodeJS.ProcessEnv => {
  const env = { ...process.env };
  for (const name of ['CLOUD', 'TABLE_NAME', 'DYNAMODB_ENDPOINT', 'SQS_ENDPOINT', 'SES_ENDPOINT', 'SCHEDULER_MODE'])
    delete env[name];
  return env;
};

const start = (port: number, env: NodeJS.ProcessEnv = cleanEnv(), smtpPort = 0, args: string[] = ['--memory']) => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts', ...args], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), SMTP_PORT: String(smtpPort), DASHBOARD_PORT: '0', INBOUND_SMTP_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (err += c));
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start-up lines within 90 s: ${out} ${err}`)), 90_000);
    child.stdout!.on('data', () => {
      if (out.includes('# Mode:')) {
        clearTimeout(timer);
        resolve(out);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`exited ${code}: ${err}`), { code, err }));
    });
  });
  return { child, ready, output: () => ({ out, err }) };
};

/**
 * Starts a host that must come up, on ports picked free: a port another process took between the
 * pick and the host's bind (a pick cannot hold it) is picked again, up to three times.
 */
const startOnFreePorts = async (options: { smtp?: boolean; args?: string[] } = {}) => {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const smtpPort = options.smtp ? await freePort() : 0;
    const run = start(port, cleanEnv(), smtpPort, options.args);
    try {
      return { ...run, port, smtpPort, lines: await run.ready };
    } catch (error) {
      if (attempt === 3 || !/is already in use/.test(String((error as { err?: string }).err))) throw error;
    }
  }
};

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

const childrenOf = (pid: number): string =>
  spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' }).stdout;

describe('npm start', () => {
  it('prints the base URL, a first key, the SMTP relay and the inbox, refuses a second start on a taken port, and stops every engine on Ctrl-C', async () => {
    // Prepare and act: a host on free ports.
    const first = await startOnFreePorts({ smtp: true });
    const { port, smtpPort, lines } = first;

    // Assess
    expect(lines).toMatch(new RegExp(`^RESEND_BASE_URL=http://127\\.0\\.0\\.1:${port}$`, 'm'));
    // The Python SDK's variable for the same base URL.
    expect(lines).toMatch(new RegExp(`^RESEND_API_URL=http://127\\.0\\.0\\.1:${port}$`, 'm'));
    const key = /^RESEND_API_KEY=(ms_\S+)$/m.exec(lines)?.[1];
    expect(key).toBeDefined();
    expect(lines).toMatch(
      new RegExp(`^SMTP: 127\\.0\\.0\\.1:${smtpPort} \\(STARTTLS; user resend; password: an API key\\)$`, 'm'),
    );
    expect(lines).toMatch(/Local inbox/);
    // The dashboard on its own port, and the first person's one-time sign-in link.
    const dashboard = /^DASHBOARD_URL=(http:\/\/127\.0\.0\.1:\d+)$/m.exec(lines)?.[1];
    expect(dashboard).toBeDefined();
    const link = new RegExp(
      `First sign-in \\(admin@example\\.com.*\\): (${dashboard!.replaceAll('.', '\\.')}/sign-in/link/\\S+)$`,
      'm',
    ).exec(lines)?.[1];
    expect(link).toBeDefined();
    expect((await fetch(link!)).status).toBe(200);
    const usage = await fetch(`http://127.0.0.1:${port}/usage`, { headers: { authorization: `Bearer ${key}` } });
    expect(usage.status).toBe(200);
    expect(await usage.json()).toMatchObject({ object: 'usage', cloud: false, plan: null });
    // The MCP URL, whose OAuth discovery names it as the resource.
    expect(lines).toMatch(new RegExp(`^MCP_URL=http://127\\.0\\.0\\.1:${port}/mcp$`, 'm'));
    // The mailbox agent API on the dashboard's origin: it answers a call without a mailbox key with 401.
    const agentUrl = new RegExp(
      `^MAILBOX_AGENT_URL=(${dashboard!.replaceAll('.', '\\.')}/api/mailbox-agent)$`,
      'm',
    ).exec(lines)?.[1];
    expect(agentUrl).toBeDefined();
    expect(await (await fetch(`${agentUrl}/items?folder=inbox`)).json()).toMatchObject({
      statusCode: 401,
      name: 'missing_mailbox_key',
    });
    const discovery = await fetch(`http://127.0.0.1:${port}/.well-known/oauth-protected-resource`);
    expect(await discovery.json()).toMatchObject({
      resource: `http://127.0.0.1:${port}/mcp`,
      authorization_servers: [`http://127.0.0.1:${port}`],
    });

    const second = start(port);
    await expect(second.ready).rejects.toMatchObject({ code: 1 });
    expect(second.output().err).toMatch(new RegExp(`port ${port} .*already in use`));
    const third = start(await freePort(), cleanEnv(), smtpPort);
    await expect(third.ready).rejects.toMatchObject({ code: 1 });
    expect(third.output().err).toMatch(new RegExp(`port ${smtpPort} \\(SMTP relay\\) is already in use`));

    const pid = first.child.pid!;
    const engines = childrenOf(pid)
      .split('\n')
      .filter((l) => l.includes('java'))
      .map((l) => Number(l.trim().split(/\s+/)[0]));
    expect(engines).toHaveLength(1);
    const done = exited(first.child);
    // Only the host itself is signalled: it must stop the engines it started.
    process.kill(pid, 'SIGINT');
    expect(await done).toBe(0);
    expect(() => process.kill(engines[0]!, 0)).toThrow();
    await expect(fetch(`http://127.0.0.1:${port}/usage`)).rejects.toThrow();
  }, 150_000);

  it('says how to install Java when it is missing', async () => {
    // A PATH with node and npx only.
    const bin = mkdtempSync(join(tmpdir(), 'nojava-'));
    symlinkSync(process.execPath, join(bin, 'node'));
    const run = start(await freePort(), { ...cleanEnv(), PATH: bin });
    await expect(run.ready).rejects.toMatchObject({ code: 1 });
    expect(run.output().err).toMatch(/needs a Java runtime/);
    expect(run.output().err).toMatch(/apt-get install -y openjdk-17-jdk-headless/);
  }, 60_000);

  it('keeps every engine on 127.0.0.1, signs links with a secret of its own data directory, and takes its engines down when killed', async () => {
    const dirA = mkdtempSync(join(tmpdir(), 'mailstack-a-'));
    const dirB = mkdtempSync(join(tmpdir(), 'mailstack-b-'));
    const startOn = async (dir: string) => {
      const run = await startOnFreePorts({ args: ['--data', dir] });
      return {
        run,
        port: run.port,
        base: `http://127.0.0.1:${run.port}`,
        key: /^RESEND_API_KEY=(ms_\S+)$/m.exec(run.lines)?.[1],
      };
    };
    /** A preference link for a new contact on the host at `base`. */
    const linkOn = async (base: string, key: string) => {
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const contact: any = await (
        await fetch(`${base}/contacts`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ email: 'reader@example.com' }),
        })
      ).json();
      const link: any = await (
        await fetch(`${base}/contacts/${contact.id}/preferences-link`, { method: 'POST', headers, body: '{}' })
      ).json();
      return new URL(link.url).pathname;
    };
    /** Every listening TCP socket of a process and its children. */
    const listening = (pid: number): string[] => {
      const pids = [
        pid,
        ...childrenOf(pid)
          .split('\n')
          .filter(Boolean)
          .map((l) => Number(l.trim().split(/\s+/)[0])),
      ];
      return spawnSync('ss', ['-ltnpH'], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter((l) => pids.some((p) => l.includes(`pid=${p},`)))
        .map((l) => l.trim().split(/\s+/)[3]!);
    };
    try {
      const a = await startOn(dirA);
      const pathA = await linkOn(a.base, a.key!);
      expect((await fetch(`${a.base}${pathA}`)).status).toBe(200);

      // Every engine and page of the host listens on loopback only.
      const sockets = listening(a.run.child.pid!);
      expect(sockets.length).toBeGreaterThanOrEqual(6);
      for (const address of sockets) expect(address).toMatch(/^(127\.0\.0\.1|\[::ffff:127\.0\.0\.1\]):\d+$/);

      const b = await startOn(dirB);
      const pathB = await linkOn(b.base, b.key!);
      // Two fresh data directories: two secrets of their own, none committed.
      const secretOf = (dir: string) => readFileSync(join(dir, LINK_SECRET_FILE), 'utf8').trim();
      const [secretA, secretB] = [secretOf(dirA), secretOf(dirB)];
      expect(secretA.length).toBeGreaterThanOrEqual(32);
      expect(secretB.length).toBeGreaterThanOrEqual(32);
      expect(secretA).not.toBe(secretB);
      // A link for B's own contact, the same claims signed with A's secret instead: B refuses it
      // (with one secret for both, this would be B's own link, and open the page).
      expect((await fetch(`${b.base}${pathB}`)).status).toBe(200);
      const [prefix, token] = [pathB.slice(0, pathB.lastIndexOf('/') + 1), pathB.slice(pathB.lastIndexOf('/') + 1)];
      const [keyId, payload] = token.split('.') as [string, string, string];
      const signedByA = `${prefix}${keyId}.${payload}.${createHmac('sha256', secretA).update(`${keyId}.${payload}`).digest('base64url')}`;
      expect(signedByA).not.toBe(pathB);
      expect((await fetch(`${b.base}${signedByA}`)).status).toBe(404);
      // And each host refuses the other's links.
      expect((await fetch(`${b.base}${pathA}`)).status).toBe(404);
      expect((await fetch(`${a.base}${pathB}`)).status).toBe(404);

      // Killed outright (no chance to clean up), the host's Java engine still goes with it.
      const javaOfA = childrenOf(a.run.child.pid!)
        .split('\n')
        .filter((l) => l.includes('java'))
        .map((l) => Number(l.trim().split(/\s+/)[0]));
      expect(javaOfA).toHaveLength(1);
      const aDone = exited(a.run.child);
      process.kill(a.run.child.pid!, 'SIGKILL');
      await aDone;
      for (
        let i = 0;
        i < 50 &&
        (() => {
          try {
            process.kill(javaOfA[0]!, 0);
            return true;
          } catch {
            return false;
          }
        })();
        i++
      )
        await new Promise((r) => setTimeout(r, 200));
      expect(() => process.kill(javaOfA[0]!, 0)).toThrow();

      // The same data directory again: the same secret, so the first link still works.
      const again = await startOn(dirA);
      expect((await fetch(`${again.base}${pathA}`)).status).toBe(200);
      for (const h of [again, b]) {
        const done = exited(h.run.child);
        process.kill(h.run.child.pid!, 'SIGINT');
        await done;
      }
    } finally {
      rmSync(dirA, { recursive: true, force: true });
      rmSync(dirB, { recursive: true, force: true });
    }
  }, 300_000);
});
