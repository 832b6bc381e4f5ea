import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { recordProcessesIn, stopOrphanedProcesses } from '@moments/process';
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
  // What a killed server was working on (a task's audio, an export's render) goes now, not a
  // day later: its process is gone, so none of it can still be in use.
  await sweepDeadProcessFolders(path.join(dataDir, 'tmp'));
  await sweepStaleWorkFolders(path.join(dataDir, 'tmp'), now);
}

/** Work folders of server processes: run-<host>-<pid>-<start time of that pid>. */
const PROCESS_FOLDER = /^run-([\w.-]+)-(\d+)-(\d+)$/;

/** This host's name as it may appear in a folder name (and in an ffmpeg filter path). */
const hostTag = () => os.hostname().replace(/[^\w.-]/g, '_') || 'host';

/**
 * When `pid` started, in clock ticks since boot (field 22 of /proc/<pid>/stat): with the pid it
 * names one process for good, even after the pid is reused. '0' where there is no /proc.
 */
function processStartTicks(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch (error) {
    // No such process (undefined), or no /proc on this system ('0'): an answer, not a failure.
    return (error as NodeJS.ErrnoException).code === 'ENOENT' && process.platform === 'linux'
      ? undefined
      : '0';
  }
}

/**
 * This process's own work folder, DATA_DIR/tmp/run-<host>-<pid>-<start>: every run's scratch
 * files (a task's audio, an export's render, span cuts, analyses, S3 copies, uploads) go inside
 * it, so the next start can tell what a dead process left from what a live one is using.
 */
export function processWorkRoot(dataDir: string): string {
  return path.join(
    dataDir,
    'tmp',
    `run-${hostTag()}-${process.pid}-${processStartTicks(process.pid) ?? '0'}`,
  );
}

/**
 * Removes the work folders of this host's server processes that are no longer running (killed,
 * crashed, the machine restarted); other hosts' folders (a shared volume) are left to their
 * own. Returns how many were removed.
 */
export async function sweepDeadProcessFolders(tmpRoot: string): Promise<number> {
  const mine = path.basename(processWorkRoot(path.dirname(tmpRoot)));
  // No tmp folder yet: nothing to sweep.
  const entries = await fs.readdir(tmpRoot).catch(() => [] as string[]);
  let removed = 0;
  for (const name of entries) {
    const match = PROCESS_FOLDER.exec(name);
    if (!match || match[1] !== hostTag() || name === mine) continue;
    const [pid, started] = [Number(match[2]), match[3]];
    if (processStartTicks(pid) === started && started !== '0') continue; // still running
    if (started === '0' && pid !== process.pid && isAlive(pid)) continue;
    await fs.rm(path.join(tmpRoot, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // ESRCH: no such process; EPERM: alive but another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes run work folders older than any run may live (a safety net: in a live process's folder,
 * or of another host's processes on a shared volume); returns how many were removed.
 */
export async function sweepStaleWorkFolders(workRoot: string, now = Date.now()): Promise<number> {
  // No work root yet (or removed meanwhile): nothing to sweep.
  const entries = await fs.readdir(workRoot, { withFileTypes: true }).catch(() => []);
  let removed = 0;
  for (const entry of entries) {
    const folder = path.join(workRoot, entry.name);
    // A process's folder lives as long as the process: the runs inside it are what ages.
    if (PROCESS_FOLDER.test(entry.name)) {
      removed += await sweepStaleWorkFolders(folder, now);
      continue;
    }
    // Removed by its owner meanwhile: nothing left to sweep.
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
  // A stat that fails means the folder is missing: made below.
  while (!(await fs.stat(current).catch(() => undefined))) {
    missing.unshift(current);
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const folder of missing) await fs.mkdir(folder);
}

/**
 * Removes one run's folder before its task or export reads DONE or ERROR: a user who sees the run
 * end (on a full disk too) has the space back. Best effort: a folder left behind is swept with the
 * process's work root.
 */
export function removeRunFolder(folder: string): Promise<void> {
  // Deliberately quiet: the run has ended either way, and the sweep removes what is left.
  return fs.rm(folder, { recursive: true, force: true }).catch(() => undefined);
}
