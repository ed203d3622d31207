import { describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../lib/local/ports.ts';

const ROOT = join(import.meta.dirname, '../..');

/** Starts `npm start -- --memory` on `port`; resolves with the printed lines once the key line is out. */
/** The environment of a fresh shell: none of the settings the test run's own host uses. */
const cleanEnv = (): NodeJS.ProcessEnv => {
  const env = { ...process.env };
  for (const name of ['CLOUD', 'TABLE_NAME', 'DYNAMODB_ENDPOINT', 'SQS_ENDPOINT', 'SES_ENDPOINT', 'SCHEDULER_MODE']) delete env[name];
  return env;
};

const start = (port: number, env: NodeJS.ProcessEnv = cleanEnv(), smtpPort = 0) => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts', '--memory'], { cwd: ROOT, env: { ...env, PORT: String(port), SMTP_PORT: String(smtpPort) }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (err += c));
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start-up lines within 90 s: ${out} ${err}`)), 90_000);
    child.stdout!.on('data', () => {
      if (out.includes('# Mode:')) { clearTimeout(timer); resolve(out); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(Object.assign(new Error(`exited ${code}: ${err}`), { code, err })); });
  });
  return { child, ready, output: () => ({ out, err }) };
};

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

const childrenOf = (pid: number): string => spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' }).stdout;

describe('npm start', () => {
  it('prints the base URL, a first key, the SMTP relay and the inbox, refuses a second start on a taken port, and stops every engine on Ctrl-C', async () => {
    // Prepare
    const port = await freePort();
    const smtpPort = await freePort();
    const first = start(port, cleanEnv(), smtpPort);

    // Act
    const lines = await first.ready;

    // Assess
    expect(lines).toMatch(new RegExp(`^RESEND_BASE_URL=http://127\\.0\\.0\\.1:${port}$`, 'm'));
    const key = /^RESEND_API_KEY=(ms_\S+)$/m.exec(lines)?.[1];
    expect(key).toBeDefined();
    expect(lines).toMatch(new RegExp(`^SMTP: 127\\.0\\.0\\.1:${smtpPort} \\(STARTTLS; user resend; password: an API key\\)$`, 'm'));
    expect(lines).toMatch(/Local inbox/);
    const usage = await fetch(`http://127.0.0.1:${port}/usage`, { headers: { authorization: `Bearer ${key}` } });
    expect(usage.status).toBe(200);
    expect(await usage.json()).toMatchObject({ object: 'usage', cloud: false, plan: null });

    const second = start(port);
    await expect(second.ready).rejects.toMatchObject({ code: 1 });
    expect(second.output().err).toMatch(new RegExp(`port ${port} .*already in use`));
    const third = start(await freePort(), cleanEnv(), smtpPort);
    await expect(third.ready).rejects.toMatchObject({ code: 1 });
    expect(third.output().err).toMatch(new RegExp(`port ${smtpPort} \\(SMTP relay\\) is already in use`));

    const pid = first.child.pid!;
    const engines = childrenOf(pid).split('\n').filter((l) => l.includes('java')).map((l) => Number(l.trim().split(/\s+/)[0]));
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
    expect(run.output().err).toMatch(/apt-get install -y openjdk-17-jre-headless/);
  }, 60_000);
});
