import { defineConfig } from 'vitest/config';

// Runs only the web app's unit tests (`npx vitest run --config apps/web/vitest.config.ts`);
// the root config runs them with everything else once it includes apps/web/src/**/*.test.ts.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['src/**/*.test.ts'],
  },
});
