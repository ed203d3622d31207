import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('cdk synth', () => {
  it('synthesizes the app offline with no AWS credentials', () => {
    const out = mkdtempSync(join(tmpdir(), 'cdk-out-'));
    try {
      const env = { ...process.env, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_PROFILE: 'none', AWS_EC2_METADATA_DISABLED: 'true' };
      const run = spawnSync('npx', ['cdk', 'synth', '--quiet', '--output', out], { env, encoding: 'utf8', timeout: 420_000 });
      expect(run.status, run.stderr).toBe(0);
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
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 450_000);
});
