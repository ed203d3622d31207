import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROUTES } from '../../functions/routes.ts';
import { lambdaContext } from '../../lib/local/events.ts';

const ROOT = resolve(import.meta.dirname, '../..');

describe('cdk synth', () => {
  it('synthesizes the app offline with no AWS credentials, and the bundled openapi function serves the description', async () => {
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

      // The bundled openapi Lambda serves the whole description: its dynamic import of the generator and every area is bundled in.
      const [fn] = Object.entries<any>(template.Resources).filter(([id, r]) => r.Type === 'AWS::Lambda::Function' && id.startsWith('Functionsopenapi'));
      expect(fn, 'the openapi function').toBeDefined();
      const asset = join(out, `asset.${String(fn![1].Properties.Code.S3Key).replace(/\.zip$/, '')}`);
      // Under the repository, so the AWS SDK the runtime provides resolves from node_modules.
      const dir = mkdtempSync(join(ROOT, '.openapi-bundle-'));
      for (const file of ['index.mjs', 'index.mjs.map']) copyFileSync(join(asset, file), join(dir, file));
      const copy = join(dir, 'index.mjs');
      try {
        process.env.TABLE_NAME ??= 'probe';
        const { handler } = await import(pathToFileURL(copy).href);
        const result = await handler({ routeKey: 'GET /openapi.json', rawPath: '/openapi.json', headers: { host: 'api.example.com', 'x-forwarded-proto': 'https' }, requestContext: { http: { method: 'GET', sourceIp: '127.0.0.1' } } }, lambdaContext('openapi'));
        expect(result.statusCode, result.body).toBe(200);
        const doc = JSON.parse(result.body);
        expect(doc.servers).toEqual([{ url: 'https://api.example.com' }]);
        expect(Object.values<any>(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0)).toBe(ROUTES.length);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 450_000);
});
