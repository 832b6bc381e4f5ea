/**
 * `npm start`'s supervisor on real processes: the real server killed with -9 comes back
 * by itself; a process that keeps dying is given up on with a message naming the crash loop; a
 * configuration error is not retried; SIGTERM is passed on and ends the supervisor too.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../apps/server/test/support/process.js';
import { supervise } from './supervise.mjs';

const root = path.resolve(import.meta.dirname, '..');
let workDir: string;

beforeAll(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-supervise-'));
});
afterAll(async () => {
  if (workDir) await fs.rm(workDir, { recursive: true, force: true });
});

async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 150_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const nodeExits = (code: number) => ({
  command: process.execPath,
  args: ['-e', `setTimeout(() => process.exit(${code}), 20)`],
});

describe('the npm start supervisor', () => {
  it('restarts the server after a kill -9, and stops it on SIGTERM', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/api/health`;
    const children: ChildProcess[] = [];
    const lines: string[] = [];
    const server = supervise({
      command: process.execPath,
      args: ['--import', 'tsx', 'apps/server/src/main.ts'],
      cwd: root,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: path.join(workDir, 'server'),
        WEB_DIST_DIR: path.join(workDir, 'no-web'),
        LOG_LEVEL: 'warn',
      },
      delaysMs: [100],
      log: (line) => lines.push(line),
      onStart: (child) => children.push(child),
    });
    const healthy = () =>
      fetch(url)
        .then((response) => (response.ok ? true : undefined))
        .catch(() => undefined);
    try {
      await waitUntil('the server up', healthy);
      children[0]!.kill('SIGKILL');
      await waitUntil('a second server process', async () => children[1]);
      await waitUntil('the restarted server up', healthy);
      expect(children[1]!.pid).not.toBe(children[0]!.pid);
      expect(lines.join('\n')).toMatch(/was killed by SIGKILL after .*restarting it in 0\.1 s/);
    } finally {
      server.stop('SIGTERM');
    }
    // The graceful close ends with 0 and nothing is restarted after it.
    expect(await server.done).toBe(0);
    expect(children).toHaveLength(2);
    expect(await healthy()).toBeUndefined();
  }, 360_000);

  it('gives up on a crash loop with a message that says so', async () => {
    const lines: string[] = [];
    let starts = 0;
    const loop = supervise({
      ...nodeExits(1),
      delaysMs: [10, 20],
      crashLoop: { crashes: 3, withinMs: 60_000 },
      log: (line) => lines.push(line),
      onStart: () => starts++,
    });
    expect(await loop.done).toBe(1);
    expect(starts).toBe(3);
    expect(lines.at(-1)).toMatch(/crashed 3 times within 60 s: it is in a crash loop/);
  });

  it('does not retry a configuration error (exit 2)', async () => {
    let starts = 0;
    const refused = supervise({ ...nodeExits(2), log: () => {}, onStart: () => starts++ });
    expect(await refused.done).toBe(2);
    expect(starts).toBe(1);
  });

  it('a run that lasted resets the crash count', async () => {
    let starts = 0;
    const lines: string[] = [];
    const flaky = supervise({
      command: process.execPath,
      // Lives 300 ms three times (each counts as stable), then a config error ends the test.
      args: ['-e', 'setTimeout(() => process.exit(Number(process.env.CODE)), 300)'],
      env: { ...process.env, CODE: '1' },
      delaysMs: [10],
      stableAfterMs: 200,
      crashLoop: { crashes: 2, withinMs: 60_000 },
      log: (line) => lines.push(line),
      onStart: () => {
        starts++;
        if (starts === 3) flaky.stop('SIGTERM');
      },
    });
    expect(await flaky.done).not.toBe(1);
    expect(lines.join('\n')).not.toContain('crash loop');
    expect(starts).toBe(3);
  });
});
