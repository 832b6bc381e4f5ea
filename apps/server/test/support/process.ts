import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the server printed, for failure messages. */
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * The real server as its own process (`npm start` runs the same entry point). `launcher` is a
 * command line the server runs under (it must exec its arguments), e.g. a mount namespace.
 */
export async function spawnServer(
  env: Record<string, string>,
  options: { launcher?: string[]; healthTimeoutMs?: number } = {},
): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const command = [
    ...(options.launcher ?? []),
    process.execPath,
    '--import',
    'tsx',
    'apps/server/src/main.ts',
  ];
  const child = spawn(command[0]!, command.slice(1), {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      SIGNUP_RATE_LIMIT_MAX: '1000',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  // A server in a network namespace listens on that namespace's address (env.HOST).
  const url = `http://${env.HOST ?? '127.0.0.1'}:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A cold start compiles the server with tsx; on a loaded 2-core box that took over a minute.
  const deadline = Date.now() + (options.healthTimeoutMs ?? 150_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    const healthy = await fetch(`${url}/api/health`)
      .then((response) => response.ok)
      .catch(() => false);
    if (healthy) break;
    if (Date.now() > deadline) {
      // Not left running (and writing into a folder the test is about to remove).
      child.kill('SIGKILL');
      await exited;
      throw new Error(`server did not become healthy:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    child,
    output: () => output,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      await exited;
    },
  };
}
