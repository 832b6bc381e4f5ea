import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, WEB_DIST_DIR } from './paths';

export interface RunningMomentsServer {
  baseUrl: string;
  /** The server's DATA_DIR (its outbox of mails is in `outbox/`). */
  dataDir: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(baseUrl: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(
        `The server exited with ${child.exitCode} before it was healthy:\n${output()}`,
      );
    }
    try {
      const reply = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (reply.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`The server did not become healthy within 90 s:\n${output()}`);
}

/**
 * Starts the real server (embedded PGlite in a temporary DATA_DIR) serving the built web app,
 * and waits until GET /api/health answers 200.
 */
export async function startMomentsServer(
  extraEnv: Record<string, string> = {},
): Promise<RunningMomentsServer> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moments-e2e-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      WEB_DIST_DIR,
      LOG_LEVEL: 'warn',
      // The suite logs in more often than a person would.
      LOGIN_RATE_LIMIT_MAX: '1000',
      SIGNUP_RATE_LIMIT_MAX: '1000',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keepTail = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-8000);
  };
  child.stdout?.on('data', keepTail);
  child.stderr?.on('data', keepTail);

  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseUrl, child, () => log);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, dataDir: extraEnv.DATA_DIR ?? dataDir, stop };
}
