/**
 * Processes must not outlive their work. Tools run in their own process group, so a
 * timeout or a cancel stops what the tool started too (yt-dlp's ffmpeg), and the groups a killed
 * server left running are stopped by the next start. Real processes, no mocks.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runProcess, startProcess, stopOrphanedProcesses } from './index.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitUntil(check: () => boolean, ms = 5000) {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

const strays: number[] = [];
afterEach(() => {
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone, as it should be
    }
  }
});

/** A shell that starts a grandchild (like yt-dlp starting ffmpeg), prints its pid and waits. */
function toolWithChild(extra = '') {
  return ['-c', `sleep 30 & echo $!; ${extra} wait`];
}

async function firstLine(child: { stdout: NodeJS.ReadableStream | null }): Promise<number> {
  return new Promise((resolve) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
  });
}

describe('runProcess / startProcess', () => {
  it('stops the tool and the children it started when the timeout passes', async () => {
    const started = startProcess('sh', toolWithChild(), { timeoutMs: 300, killGraceMs: 200 });
    const grandchild = await firstLine(started.child);
    strays.push(grandchild);
    expect(alive(grandchild)).toBe(true);
    const exit = await started.exited;
    expect(exit.stopReason).toBe('timeout');
    expect(await waitUntil(() => !alive(grandchild))).toBe(true);
  });

  it('stops the whole group when the caller aborts, and says so', async () => {
    const controller = new AbortController();
    const started = startProcess('sh', toolWithChild(), { signal: controller.signal });
    const grandchild = await firstLine(started.child);
    strays.push(grandchild);
    controller.abort();
    expect((await started.exited).stopReason).toBe('aborted');
    expect(await waitUntil(() => !alive(grandchild))).toBe(true);
  });

  it('keeps the end of stderr, passes arguments literally and names a missing tool', async () => {
    const hostile = 'name; rm -rf / $(reboot) `id` | cat';
    const result = await runProcess('sh', [
      '-c',
      'printf %s "$1"; i=0; while [ $i -lt 3000 ]; do echo "line $i" >&2; i=$((i+1)); done; exit 3',
      'sh',
      hostile,
    ]);
    expect(result.stdout.toString()).toBe(hostile);
    expect(result.exitCode).toBe(3);
    expect(result.stderrTail.length).toBeLessThanOrEqual(8192);
    expect(result.stderrTail.trimEnd().endsWith('line 2999')).toBe(true);

    const missing = await runProcess('/nonexistent/moments-tool', []);
    expect((missing.spawnError as NodeJS.ErrnoException).code).toBe('ENOENT');
  });

  it('after a kill -9 of the server, the next start stops the tools it left running', async () => {
    const records = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-procs-'));
    const owner = path.join(records, 'owner.ts');
    const module = fileURLToPath(new URL('./index.ts', import.meta.url));
    await fs.writeFile(
      owner,
      `import { recordProcessesIn, startProcess } from ${JSON.stringify(module)};
       recordProcessesIn(${JSON.stringify(records)});
       const tool = startProcess('sleep', ['60']);
       console.log(tool.child.pid);
       setInterval(() => {}, 1000);`,
    );
    const server = spawn(process.execPath, ['--import', 'tsx', owner], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const tool = await firstLine(server);
      strays.push(tool);
      expect(await fs.readdir(records)).toContain(`${tool}.json`);

      server.kill('SIGKILL'); // no exit handler runs: the tool is orphaned
      await new Promise((resolve) => server.once('close', resolve));
      expect(alive(tool)).toBe(true);

      expect(stopOrphanedProcesses(records)).toEqual([tool]);
      expect(await waitUntil(() => !alive(tool))).toBe(true);
      expect(await fs.readdir(records)).not.toContain(`${tool}.json`);
    } finally {
      server.kill('SIGKILL');
      await fs.rm(records, { recursive: true, force: true });
    }
  }, 30_000);

  it('leaves alone the tools of a server that is still running', async () => {
    const records = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-procs-'));
    try {
      const tool = startProcess('sleep', ['60']);
      strays.push(tool.child.pid!);
      // A record written by this (living) process for its own tool.
      await fs.writeFile(
        path.join(records, `${tool.child.pid}.json`),
        JSON.stringify({ pid: tool.child.pid, owner: process.ppid, command: 'sleep' }),
      );
      expect(stopOrphanedProcesses(records)).toEqual([]);
      expect(alive(tool.child.pid!)).toBe(true);
      tool.stop();
      expect((await tool.exited).stopReason).toBe('stopped');
    } finally {
      await fs.rm(records, { recursive: true, force: true });
    }
  });
});
