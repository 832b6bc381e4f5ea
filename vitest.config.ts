import { defineConfig } from 'vitest/config';

// One test command for the whole repo. Unit tests sit next to the code (*.test.ts);
// database tests run once on embedded PGlite and once on PostgreSQL when it is reachable;
// end-to-end tests drive Debian's Chromium through playwright-core against the real server.
export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'apps/server/src/**/*.test.ts',
      'apps/server/test/**/*.test.ts',
      'apps/web/src/**/*.test.ts',
      'e2e/**/*.test.ts',
      'scripts/**/*.test.ts',
      'eslint-rules/**/*.test.js',
    ],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Browser tests poll for what a page shows after debounces and renders; on a loaded 2-core
    // box that can take longer than vitest's default second (a caption preview failed so in CI).
    expect: { poll: { timeout: 15_000, interval: 100 } },
    // Test files run on both cores of the CI box (309 s instead of 507 s).
    maxWorkers: 2,
    reporters: ['default', './scripts/vitest-summary-reporter.ts'],
  },
});
