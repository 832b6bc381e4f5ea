#!/usr/bin/env node
// `npm start`: gets a fresh clone running with the embedded defaults (PGlite, local files,
// in-process jobs and realtime). Installs npm packages if they are missing, runs
// scripts/setup.sh when a system tool, the Python tools or the speech model are missing, builds
// the web app when its sources are newer than the build, then starts the server and restarts it
// if it dies. `npm run dev` (`--dev`): the same install and setup, then the API restarted on every
// saved source file and the web app's Vite dev server (hot reload, proxying to the API) instead of
// a build.
// Plain Node on purpose: it must run before `npm install` has.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { supervise } from './supervise.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const forTests = process.argv.includes('--prepare-tests');
const dev = process.argv.includes('--dev');

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

if (!fs.existsSync(path.join(root, 'node_modules', '.package-lock.json'))) {
  console.log('[start] installing npm packages (first run)…');
  const env = { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' };
  if (run('npm', ['ci', '--no-audit', '--no-fund'], { env }) !== 0) process.exit(1);
}

if (run('bash', ['scripts/setup.sh', '--check'], { stdio: 'ignore' }) !== 0) {
  console.log('[start] installing system tools, the Python tools and the speech model…');
  if (run('bash', ['scripts/setup.sh']) !== 0) {
    console.error('[start] setup could not install everything the app needs (see above).');
    process.exit(1);
  }
}

const webDir = path.join(root, 'apps', 'web');
const builtIndex = path.join(webDir, 'dist', 'index.html');
const sourcesChanged = () =>
  Math.max(newestMtime(path.join(webDir, 'src')), newestMtime(path.join(root, 'packages'))) >
  fs.statSync(builtIndex).mtimeMs;
if (!dev && (!fs.existsSync(builtIndex) || sourcesChanged())) {
  console.log('[start] building the web app…');
  if (run('npm', ['run', 'build', '-w', 'apps/web']) !== 0) process.exit(1);
}

if (forTests) process.exit(0);

if (dev) {
  const children = [
    spawn(process.execPath, ['--watch', '--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: root,
      stdio: 'inherit',
      env: { NODE_ENV: 'development', ...process.env },
    }),
    spawn('npm', ['run', 'dev', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' }),
  ];
  // One of the two ending (or Ctrl-C) ends the other, so no orphan keeps the port.
  const stopAll = (signal) => children.forEach((child) => child.kill(signal));
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
    process.on(signal, () => stopAll(signal));
  }
  const codes = await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) =>
          child.on('exit', (code) => {
            stopAll('SIGTERM');
            resolve(code ?? 1);
          }),
        ),
    ),
  );
  process.exit(Math.max(...codes));
}

// Supervised: a server process that dies is started again (with growing pauses), a crash loop
// is given up on with a message saying so (scripts/supervise.mjs).
const server = supervise({
  command: process.execPath,
  args: ['--import', 'tsx', 'apps/server/src/main.ts'],
  cwd: root,
  env: { NODE_ENV: 'production', ...process.env },
});
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => server.stop(signal));
}
process.exit(await server.done);
