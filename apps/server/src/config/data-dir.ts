import fs from 'node:fs/promises';
import path from 'node:path';
import { recordProcessesIn, stopOrphanedProcesses } from '@moments/media/process';
import { ConfigError } from './index.js';

/** Work folders of runs are kept at most this long: no run may live longer (queue expiry). */
const STALE_WORK_MS = 24 * 3600_000;

/**
 * Checks at start that DATA_DIR can be written (a read-only or virtual path such as /proc would
 * otherwise hang the embedded database at high CPU), stops the tools (ffmpeg, yt-dlp, whisper)
 * that a killed server left running, and sweeps work folders it left behind in DATA_DIR/tmp.
 */
export async function prepareDataDir(dataDir: string, now = Date.now()): Promise<void> {
  const probe = path.join(dataDir, `.write-check-${process.pid}`);
  try {
    await makeFolder(dataDir);
    await fs.writeFile(probe, 'ok');
    if ((await fs.readFile(probe, 'utf8')) !== 'ok') throw new Error('read back differs');
    await fs.rm(probe, { force: true });
  } catch (error) {
    throw new ConfigError(
      `DATA_DIR "${dataDir}" is not a writable folder (${(error as Error).message}). ` +
        'Point DATA_DIR at a folder this user can write.',
    );
  }
  const processRecords = path.join(dataDir, 'procs');
  stopOrphanedProcesses(processRecords);
  recordProcessesIn(processRecords);
  await sweepStaleWorkFolders(path.join(dataDir, 'tmp'), now);
}

/** Removes run work folders older than any run may live; returns how many were removed. */
export async function sweepStaleWorkFolders(workRoot: string, now = Date.now()): Promise<number> {
  const entries = await fs.readdir(workRoot, { withFileTypes: true }).catch(() => []);
  let removed = 0;
  for (const entry of entries) {
    const folder = path.join(workRoot, entry.name);
    const stat = await fs.stat(folder).catch(() => undefined);
    if (!stat || now - stat.mtimeMs < STALE_WORK_MS) continue;
    await fs.rm(folder, { recursive: true, force: true });
    removed++;
  }
  return removed;
}

/**
 * mkdir -p one level at a time: Node's recursive mkdir loops forever on some virtual file systems
 * (a DATA_DIR under /proc hung start-up at full CPU), a plain mkdir fails at once with the reason.
 */
async function makeFolder(dir: string): Promise<void> {
  const missing: string[] = [];
  let current = path.resolve(dir);
  while (!(await fs.stat(current).catch(() => undefined))) {
    missing.unshift(current);
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const folder of missing) await fs.mkdir(folder);
}
