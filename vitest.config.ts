import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The usual order (slowest first), except that the journey following the first sign-in link the
 * host printed goes first: that link works for 15 minutes from the host's start, as on `npm start`.
 */
class FirstSignInFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = (f: TestSpecification) => (f.moduleId.endsWith('/test/contract/dashboard-browser.test.ts') ? 0 : 1);
    return [...sorted].sort((a, b) => first(a) - first(b));
  }
}

const env = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', POWERTOOLS_METRICS_DISABLED: 'true' };

/**
 * Two tiers. `unit`: domain rules against in-memory ports, no engine and no host (a connection
 * attempt fails the test); `npm run test:unit`. `system`: everything else, against the local
 * engines and host the global setup starts. `npm test` runs both.
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
    sequence: { sequencer: FirstSignInFirst },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], env, setupFiles: ['test/support/no-engines.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'system',
          include: ['test/**/*.test.ts'],
          exclude: ['test/unit/**'],
          env,
          globalSetup: ['test/support/global-setup.ts'],
          // Every response a test receives from the local host is held against GET /openapi.json.
          setupFiles: ['test/support/drift.ts'],
        },
      },
    ],
  },
});
