/**
 * The process-level guards in a real Node process: a rejection nobody handles inside a
 * job is logged with the job's ids and the process keeps running; an exception thrown outside
 * any promise is logged as fatal and the process exits with 1 for its supervisor to restart.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const here = import.meta.dirname;

/** Runs `body` (ES module code) in a fresh Node with the guards installed on a JSON logger. */
function runGuarded(body: string) {
  const script = `
    import { createLogger } from ${JSON.stringify(path.join(here, 'logging.ts'))};
    import { installProcessGuards } from ${JSON.stringify(path.join(here, 'process-guards.ts'))};
    import { withRunIds } from ${JSON.stringify(path.join(here, 'queue/run-context.ts'))};
    installProcessGuards(createLogger('info'));
    ${body}
  `;
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script],
    { encoding: 'utf8', timeout: 30_000 },
  );
  const lines = result.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown> & { err?: { message: string } });
  return { status: result.status, lines, stdout: result.stdout, stderr: result.stderr };
}

describe('process guards', () => {
  it('logs a rejection nobody handles with the ids of its job, and keeps running', () => {
    const run = runGuarded(`
      await withRunIds({ queue: 'export-render', jobId: 'job-7', userId: 'user-3' }, async () => {
        // A detached promise inside a job: it rejects after the job's own await is long over.
        setTimeout(() => void Promise.reject(new Error('ffmpeg was cancelled')), 10);
      });
      setTimeout(() => console.log(JSON.stringify({ msg: 'still serving' })), 200);
    `);
    expect(run.status, run.stderr).toBe(0);
    const logged = run.lines.find((line) => line.msg?.toString().includes('unhandled'));
    expect(logged, run.stdout).toMatchObject({
      level: 50,
      jobId: 'job-7',
      userId: 'user-3',
      queue: 'export-render',
      err: { message: 'ffmpeg was cancelled' },
    });
    expect(run.lines.at(-1)).toMatchObject({ msg: 'still serving' });
  });

  it('exits with 1 after logging an exception thrown outside any promise', () => {
    const run = runGuarded(`
      await withRunIds({ taskId: 'task-9' }, async () => {
        setTimeout(() => { throw new TypeError('state is broken'); }, 10);
      });
      setTimeout(() => console.log(JSON.stringify({ msg: 'must not be reached' })), 500);
    `);
    expect(run.status).toBe(1);
    expect(
      run.lines.find((line) => line.level === 60),
      run.stdout,
    ).toMatchObject({
      taskId: 'task-9',
      err: { message: 'state is broken' },
    });
    expect(run.stdout).not.toContain('must not be reached');
  });
});
