import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../../lib/local/ports.ts';
import { selfSignedCertificate } from '../../lib/local/certificate.ts';
import { local } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { acceptedId, relayTransport } from '../support/smtp.ts';

const ROOT = join(import.meta.dirname, '../..');

describe('the SMTP relay container entry', () => {
  it("bundles with the Dockerfile's build command, serves /health, relays mail with the certificate from its environment, and stops on SIGTERM", async () => {
    // Prepare: the bundle the image runs, pointed at this run's engines.
    const build = spawnSync('npm', ['run', 'build:smtp'], { cwd: ROOT, encoding: 'utf8' });
    expect(build.status, build.stderr).toBe(0);
    const tls = await selfSignedCertificate();
    const [port, healthPort] = [await freePort(), await freePort()];
    const child = spawn(process.execPath, [join(ROOT, 'dist/smtp/main.mjs')], {
      env: {
        ...process.env,
        ...local().env,
        SMTP_PORT: String(port),
        SMTP_HEALTH_PORT: String(healthPort),
        SMTP_LISTEN_ADDRESS: '127.0.0.1',
        SMTP_TLS_CERT: tls.cert,
        SMTP_TLS_KEY: tls.key,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (c) => (output += c));
    child.stderr!.on('data', (c) => (output += c));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 30_000;
      let health: Response | undefined;
      while (!health && Date.now() < deadline) {
        health = await fetch(`http://127.0.0.1:${healthPort}/health`).catch(() => undefined);
        if (!health) await new Promise((r) => setTimeout(r, 200));
      }
      expect(health?.status, output).toBe(200);
      const t = await sendingTeam();

      // Act
      const info = await relayTransport(t.secret, { port, ca: tls.cert }).sendMail({
        from: t.from,
        to: 'delivered@resend.dev',
        subject: 'From the container',
        text: 'x',
      });

      // Assess
      expect((await t.resend.emails.get(acceptedId(info.response))).data?.subject).toBe('From the container');
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});
