/**
 * The systemd units of the scale-out layout (deploy/systemd): systemd itself accepts
 * them, and the command each one runs, with the environment it sets, starts the role it names:
 * the API serves and closes with 0 on SIGTERM (so Restart=on-failure leaves a clean stop alone),
 * each worker takes only its queue, and a configuration error exits with the status the units
 * refuse to restart on.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './support/process.js';
import { waitFor } from './support/remote.js';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
const UNITS_DIR = path.join(REPO_ROOT, 'deploy/systemd');
/** A cold start compiles the server with tsx: on a loaded 2-core box that alone took over 60 s. */
const STARTUP_MS = 150_000;
const hasSystemdAnalyze =
  spawnSync('systemd-analyze', ['--version'], { stdio: 'ignore' }).status === 0;
if (!hasSystemdAnalyze)
  console.warn(
    'Skipping the unit-file check: systemd-analyze is missing (apt-get install systemd)',
  );

interface Unit {
  file: string;
  text: string;
  /** Key=value lines of [Service], repeated keys in order. */
  service: Map<string, string[]>;
}

async function readUnit(name: string, instance?: string): Promise<Unit> {
  const file = path.join(UNITS_DIR, name);
  const text = (await fs.readFile(file, 'utf8')).replaceAll('%i', instance ?? '%i');
  const service = new Map<string, string[]>();
  let section = '';
  for (const line of text.split('\n')) {
    const header = /^\[(\w+)\]$/.exec(line.trim());
    if (header) section = header[1]!;
    const pair = /^(\w+)=(.*)$/.exec(line.trim());
    if (section === 'Service' && pair) {
      service.set(pair[1]!, [...(service.get(pair[1]!) ?? []), pair[2]!]);
    }
  }
  return { file, text, service };
}

const value = (unit: Unit, key: string) => unit.service.get(key)?.at(-1);

/** The environment the unit gives its process (Environment= lines; files are the operator's). */
function environmentOf(unit: Unit): Record<string, string> {
  return Object.fromEntries(
    (unit.service.get('Environment') ?? []).map((pair) => {
      const at = pair.indexOf('=');
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

let workDir: string;
beforeAll(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-systemd-'));
});
afterAll(async () => {
  if (workDir) await fs.rm(workDir, { recursive: true, force: true });
});

/** Starts the unit's ExecStart in its WorkingDirectory (this checkout) with its environment. */
async function startAsUnit(unit: Unit, env: Record<string, string>) {
  const [binary, ...args] = value(unit, 'ExecStart')!.split(/\s+/);
  expect(binary).toBe('/usr/bin/node');
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    // What /etc/moments/moments.env holds on every machine of a split deployment: one secret
    // and one public address for all roles.
    env: {
      ...process.env,
      ...environmentOf(unit),
      LOG_LEVEL: 'info',
      APP_SECRET: 'systemd-units-test-secret-0123456789abcdef',
      PUBLIC_URL: 'http://127.0.0.1:3000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return { child, output: () => output };
}

describe('deploy/systemd', () => {
  it.skipIf(!hasSystemdAnalyze)(
    'systemd accepts the API unit and both worker instances',
    async () => {
      // Verified as installed would be, with this checkout as /opt/moments and this node.
      const dir = path.join(workDir, 'units');
      await fs.mkdir(dir, { recursive: true });
      const envFile = path.join(workDir, 'moments.env');
      await fs.writeFile(envFile, 'DATABASE_URL=postgres://moments@db/moments\n');
      for (const name of ['moments-api.service', 'moments-worker@.service']) {
        const text = (await fs.readFile(path.join(UNITS_DIR, name), 'utf8'))
          .replaceAll('/usr/bin/node', process.execPath)
          .replaceAll('/opt/moments', REPO_ROOT)
          .replaceAll('/etc/moments/moments.env', envFile);
        await fs.writeFile(path.join(dir, name), text);
      }
      for (const unit of [
        'moments-api.service',
        'moments-worker@asr.service',
        'moments-worker@render.service',
      ]) {
        const check = spawnSync('systemd-analyze', ['verify', '--man=no', path.join(dir, unit)], {
          encoding: 'utf8',
        });
        expect(check.stderr, unit).toBe('');
        expect(check.status, unit).toBe(0);
      }
    },
  );

  it('both units restart on failure only, stop with SIGTERM to the server alone, and give it time', async () => {
    for (const unit of [
      await readUnit('moments-api.service'),
      await readUnit('moments-worker@.service', 'render'),
    ]) {
      expect(value(unit, 'Restart')).toBe('on-failure');
      expect(value(unit, 'RestartPreventExitStatus')).toBe('2');
      expect(value(unit, 'KillSignal')).toBe('SIGTERM');
      expect(value(unit, 'KillMode')).toBe('mixed');
      // Longer than the server's own 60 s close deadline (main.ts).
      expect(Number.parseInt(value(unit, 'TimeoutStopSec')!, 10)).toBeGreaterThan(60);
    }
  });

  it("the API unit's command serves, and closes with 0 on SIGTERM", async () => {
    const unit = await readUnit('moments-api.service');
    expect(environmentOf(unit)).toMatchObject({ ROLES: 'api' });
    const port = await freePort();
    const api = await startAsUnit(unit, {
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: path.join(workDir, 'api'),
      WEB_DIST_DIR: path.join(workDir, 'no-web'),
    });
    const exited = once(api.child, 'exit');
    try {
      await waitFor(`the API up: ${api.output()}`, STARTUP_MS, () =>
        fetch(`http://127.0.0.1:${port}/api/health`)
          .then((response) => (response.ok ? true : undefined))
          .catch(() => undefined),
      );
      expect(api.output()).toContain('(roles: api,');
    } finally {
      api.child.kill('SIGTERM');
    }
    const [code] = await exited;
    expect(code, api.output()).toBe(0);
  }, 240_000);

  it("the worker unit's command takes only its instance's queue, and a bad setting exits 2", async () => {
    const unit = await readUnit('moments-worker@.service', 'render');
    expect(environmentOf(unit)).toMatchObject({ ROLES: 'worker', WORKER_QUEUES: 'render' });
    const worker = await startAsUnit(unit, { DATA_DIR: path.join(workDir, 'worker') });
    const exited = once(worker.child, 'exit');
    try {
      await waitFor(`the worker up: ${worker.output()}`, STARTUP_MS, () =>
        worker.output().includes('Moments is ready') ? true : undefined,
      );
      expect(worker.output()).toContain('(worker only) (roles: worker,');
    } finally {
      worker.child.kill('SIGTERM');
    }
    expect((await exited)[0], worker.output()).toBe(0);

    const refused = await startAsUnit(unit, {
      DATA_DIR: path.join(workDir, 'worker'),
      WORKER_CONCURRENCY: 'many',
    });
    const [code] = await once(refused.child, 'exit');
    expect(code, refused.output()).toBe(2);
    expect(refused.output()).toContain('WORKER_CONCURRENCY');
  }, 240_000);
});
