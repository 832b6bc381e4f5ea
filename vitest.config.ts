import { defineConfig } from 'vitest/config';

// Three tiers of one suite (docs/testing.md):
// - fast: unit tests and PGlite integration with fake tools. `npm test`, a couple of minutes,
//   no install step, no server, no browser, no speech model.
// - slow: files named *.slow.test.ts run real tools, servers or processes (ffmpeg, Whisper,
//   festival, PostgreSQL, Redis, moto, localstripe, schemathesis, the server as a child process).
// - e2e: Debian's Chromium through playwright-core against the real server.
// `npm run test:all` runs the three; the fast tier's database tests then run on PostgreSQL too.
const unitAndServerTests = [
  'packages/*/src/**/*.test.ts',
  'packages/*/test/**/*.test.ts',
  'apps/server/src/**/*.test.ts',
  'apps/server/test/**/*.test.ts',
  'apps/web/src/**/*.test.ts',
  'scripts/**/*.test.ts',
  'eslint-rules/**/*.test.js',
];
const slowTests = ['**/*.slow.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // The PostgreSQL runs need pgvector: one server with it is started for the run.
    globalSetup: ['./scripts/test-postgres.global-setup.ts'],
    // Browser tests poll for what a page shows after debounces and renders; on a loaded 2-core
    // box that can take longer than vitest's default second (a caption preview failed so in CI).
    expect: { poll: { timeout: 15_000, interval: 100 } },
    // Test files run on both cores of a 2-core box.
    maxWorkers: 2,
    reporters: ['default', './scripts/vitest-summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          include: unitAndServerTests,
          exclude: [...slowTests, '**/node_modules/**'],
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'slow', include: slowTests, exclude: ['e2e/**', '**/node_modules/**'] },
      },
      { extends: true, test: { name: 'e2e', include: ['e2e/**/*.test.ts'] } },
    ],
  },
});
