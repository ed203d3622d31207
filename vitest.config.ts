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

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', POWERTOOLS_METRICS_DISABLED: 'true' },
    globalSetup: ['test/support/global-setup.ts'],
    // Every response a test receives from the local host is held against GET /openapi.json.
    setupFiles: ['test/support/drift.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
    sequence: { sequencer: FirstSignInFirst },
  },
});
