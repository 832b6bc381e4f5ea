/** A real S3-compatible server for tests: moto's standalone server on loopback. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../src/config/index.js';
import { freePort } from './process.js';

export const MOTO_SERVER =
  process.env.MOTO_SERVER_PATH ?? path.join(REPO_ROOT, '.tools/test-venv/bin/moto_server');
export const hasMoto = existsSync(MOTO_SERVER);
if (!hasMoto) {
  // Like REQUIRE_POSTGRES: where CI installs moto, a missing server is a failure, not a skip.
  if (process.env.REQUIRE_MOTO === '1') throw new Error(`moto_server not found at ${MOTO_SERVER}`);
  console.warn(
    `moto_server not found at ${MOTO_SERVER}: skipping the S3 storage tests ` +
      '(run scripts/setup.sh, or set MOTO_SERVER_PATH to a moto_server binary)',
  );
}

export async function startMoto(): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(MOTO_SERVER, ['-H', '127.0.0.1', '-p', String(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`moto_server exited: ${stderr}`);
    try {
      await fetch(`${endpoint}/moto-api/`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`moto_server did not start: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return {
    endpoint,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
