import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT, WEB_DIR, WEB_DIST_DIR } from './paths';

const run = promisify(execFile);

/** Everything the bundle is made from; a build older than any of these is rebuilt. */
const BUILD_INPUTS = [
  path.join(WEB_DIR, 'src'),
  path.join(WEB_DIR, 'public'),
  path.join(WEB_DIR, 'index.html'),
  path.join(WEB_DIR, 'vite.config.ts'),
  path.join(WEB_DIR, 'package.json'),
  path.join(REPO_ROOT, 'packages/contract/src'),
  path.join(REPO_ROOT, 'packages/domain/src'),
];

function newestMtime(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) {
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

function isWebBuildStale(): boolean {
  const builtIndex = path.join(WEB_DIST_DIR, 'index.html');
  if (!fs.existsSync(builtIndex)) return true;
  const builtAt = fs.statSync(builtIndex).mtimeMs;
  return BUILD_INPUTS.some((input) => newestMtime(input) > builtAt);
}

const LOCK_DIR = path.join(
  os.tmpdir(),
  `moments-web-build-${Buffer.from(REPO_ROOT).toString('hex').slice(-16)}.lock`,
);
const LOCK_OWNER = path.join(LOCK_DIR, 'pid');

/** Whether the lock is held by a process that died (a killed test run) and may be taken over. */
function lockAbandoned(): boolean {
  let owner = Number.NaN;
  try {
    owner = Number(fs.readFileSync(LOCK_OWNER, 'utf8').trim());
  } catch {
    // No pid file: read below by the lock's age.
  }
  if (!Number.isInteger(owner) || owner <= 0) {
    // Taken an instant ago and its pid not written yet (the file is empty while it is being
    // written, and 0 would ask about our own process group), or released meanwhile: wait and see.
    const takenAt = fs.statSync(LOCK_DIR, { throwIfNoEntry: false })?.mtimeMs;
    return takenAt !== undefined && Date.now() - takenAt > 10_000;
  }
  try {
    process.kill(owner, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

async function withBuildLock<T>(work: () => Promise<T>): Promise<T> {
  // Test files run in parallel workers; only one of them may write apps/web/dist at a time.
  // A build takes as long as it takes on a loaded machine: the lock passes on only when its
  // holder has died, never by age.
  for (;;) {
    try {
      fs.mkdirSync(LOCK_DIR);
      fs.writeFileSync(LOCK_OWNER, String(process.pid));
      break;
    } catch {
      if (lockAbandoned()) fs.rmSync(LOCK_DIR, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(LOCK_DIR, { recursive: true, force: true });
  }
}

/** Builds apps/web with Vite when its dist is missing or older than its sources. */
export async function ensureWebBuild(): Promise<void> {
  if (!isWebBuildStale()) return;
  await withBuildLock(async () => {
    if (!isWebBuildStale()) return;
    const viteBin = path.join(WEB_DIR, 'node_modules/vite/bin/vite.js');
    const bin = fs.existsSync(viteBin)
      ? viteBin
      : path.join(REPO_ROOT, 'node_modules/vite/bin/vite.js');
    try {
      await run(process.execPath, [bin, 'build', '--logLevel', 'warn'], {
        cwd: WEB_DIR,
        // vitest sets NODE_ENV=test, which would give a development bundle (no service worker).
        env: { ...process.env, NODE_ENV: 'production' },
        maxBuffer: 32 * 1024 * 1024,
      });
    } catch (error) {
      const { stderr = '', stdout = '' } = error as { stderr?: string; stdout?: string };
      throw new Error(`vite build failed:\n${stdout.slice(-2000)}\n${stderr.slice(-4000)}`);
    }
  });
}
