import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('cdk synth', () => {
  it('synthesizes the app offline with no AWS credentials', () => {
    const out = mkdtempSync(join(tmpdir(), 'cdk-out-'));
    try {
      const env = { ...process.env, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_PROFILE: 'none', AWS_EC2_METADATA_DISABLED: 'true' };
      const run = spawnSync('npx', ['cdk', 'synth', '--quiet', '--output', out], { env, encoding: 'utf8', timeout: 180_000 });
      expect(run.status, run.stderr).toBe(0);
      const template = JSON.parse(readFileSync(join(out, 'Mailstack.template.json'), 'utf8'));
      expect(Object.values<any>(template.Resources).some((r) => r.Type === 'AWS::ApiGatewayV2::Api')).toBe(true);
      expect(readdirSync(out).some((f) => f.startsWith('asset.'))).toBe(true);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 200_000);
});
