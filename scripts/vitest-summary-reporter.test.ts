import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** Runs vitest on a throwaway project that has one passing and one skipped test. */
function runProject(env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'moments-require-all-'));
  dirs.push(dir);
  writeFileSync(
    join(dir, 'sample.test.mjs'),
    "import { it } from 'vitest';\nit('passes', () => {});\nit('needs a tool', (ctx) => ctx.skip('tool missing'));\n",
  );
  writeFileSync(
    join(dir, 'vitest.config.mjs'),
    `export default { test: { include: ['sample.test.mjs'], reporters: [${JSON.stringify(
      resolve(import.meta.dirname, 'vitest-summary-reporter.ts'),
    )}] } };\n`,
  );
  const vitest = resolve(import.meta.dirname, '../node_modules/vitest/vitest.mjs');
  const run = spawnSync(process.execPath, [vitest, 'run', '--root', dir], {
    encoding: 'utf8',
    env: { ...process.env, REQUIRE_ALL: '', ...env },
  });
  return { status: run.status, output: run.stdout + run.stderr };
}
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('REQUIRE_ALL switch', () => {
  it('fails the run when any test skipped, naming it and its reason', () => {
    const run = runProject({ REQUIRE_ALL: '1' });
    expect(run.status).toBe(1);
    expect(run.output).toContain('needs a tool (tool missing)');
    expect(run.output).toContain('Tests: 1 passed, 1 failed, 1 skipped');
  });

  it('lets skips pass without the switch (a developer machine)', () => {
    const run = runProject({});
    expect(run.status).toBe(0);
    expect(run.output).toContain('Tests: 1 passed, 0 failed, 1 skipped');
  });
});
