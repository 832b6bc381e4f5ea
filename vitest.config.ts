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
    ],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    reporters: ['default', './scripts/vitest-summary-reporter.ts'],
  },
});
