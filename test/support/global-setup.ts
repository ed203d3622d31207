import type { TestProject } from 'vitest/node';
import { startLocalHost, type LocalHost } from '../../lib/local/host.ts';
import { resolveBrowser } from './browser.ts';

let host: LocalHost | undefined;

/** Starts the local host once per test run (one JVM); each test file makes its own teams. */
export async function setup(project: TestProject): Promise<void> {
  // Unpacked once here, before the test workers fork, so no two workers unpack it at once.
  project.provide('browser', await resolveBrowser());
  host = await startLocalHost({
    port: 0,
    smtpPort: 0,
    dashboardPort: 0,
    inboundPort: 0,
    memory: true,
    // Cloud mode, so plan caps are testable; self-hosted behaviour is covered with explicit settings.
    cloud: true,
    // A short lookup staleness, so tests that change a key or team in their own process wait little;
    // a short queue visibility (AWS's is 300 s), so a record a worker failed under the suite's load comes back soon.
    env: { LOG_LEVEL: 'ERROR', LOOKUP_CACHE_MS: '1000', QUEUE_VISIBILITY_SECONDS: '2' },
  });
  project.provide('local', {
    baseUrl: host.baseUrl,
    inboxUrl: host.inboxUrl,
    dashboardUrl: host.dashboardUrl,
    firstSignInLink: host.firstSignInLink ?? '',
    smtp: host.smtp,
    inbound: host.inbound,
    env: host.state.env,
    queueUrls: host.state.queueUrls,
  });
}

export async function teardown(): Promise<void> {
  await host?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    local: {
      baseUrl: string;
      inboxUrl: string;
      dashboardUrl: string;
      firstSignInLink: string;
      smtp: { port: number; certificate: string };
      inbound: { port: number };
      env: Record<string, string>;
      queueUrls: Record<string, string>;
    };
  }
}
