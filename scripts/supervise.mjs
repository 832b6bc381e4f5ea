// @ts-check
// Keeps the server running under `npm start`: a server process that dies is started
// again after a growing pause; one that keeps dying is given up on with a message that says so.
// Plain Node on purpose, like start.mjs. Deployments use systemd instead (deploy/systemd/).
import { spawn } from 'node:child_process';

/** Exit codes that no restart can fix: 2 is the server's "invalid configuration". */
const FINAL_EXIT_CODES = [2];

/**
 * @typedef {object} SuperviseOptions
 * @property {string} command
 * @property {string[]} args
 * @property {string} [cwd]
 * @property {NodeJS.ProcessEnv} [env]
 * @property {number[]} [delaysMs] pauses before the 1st, 2nd, ... restart in a row (the last repeats)
 * @property {number} [stableAfterMs] a run this long resets the pauses and the crash count
 * @property {{ crashes: number, withinMs: number }} [crashLoop] this many crashes within this long: give up
 * @property {(line: string) => void} [log]
 * @property {(child: import('node:child_process').ChildProcess) => void} [onStart]
 */

/**
 * Runs `command` and restarts it when it dies (any exit but 0, a signal it was not sent by us, or
 * a configuration error). SIGINT and SIGTERM to this process are passed on once, and then nothing
 * is restarted. `done` resolves with the exit code this process should end with.
 * @param {SuperviseOptions} options
 * @returns {{ done: Promise<number>, stop(signal?: NodeJS.Signals): void }}
 */
export function supervise(options) {
  const {
    delaysMs = [1000, 2000, 5000, 10_000, 30_000],
    stableAfterMs = 60_000,
    crashLoop = { crashes: 5, withinMs: 5 * 60_000 },
    log = (line) => console.log(`[start] ${line}`),
  } = options;
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let child;
  /** @type {NodeJS.Timeout | undefined} */
  let restartTimer;
  /** @type {number[]} */
  let crashTimes = [];
  let stopping = false;
  /** @type {(code: number) => void} */
  let finish = () => {};
  const done = new Promise((resolve) => (finish = resolve));

  const start = () => {
    const startedAt = Date.now();
    const running = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: options.env,
      stdio: 'inherit',
    });
    child = running;
    running.on('error', (error) => log(`could not start the server: ${error.message}`));
    running.on('exit', (code, signal) => {
      child = undefined;
      if (stopping) return finish(code ?? 0);
      if (code === 0) return finish(0); // it was told to stop by someone else: so be it
      if (code !== null && FINAL_EXIT_CODES.includes(code)) {
        log('the server refused its configuration (see above); fix it and run npm start again.');
        return finish(code);
      }
      const ranMs = Date.now() - startedAt;
      const now = Date.now();
      if (ranMs >= stableAfterMs) crashTimes = [];
      crashTimes = [...crashTimes.filter((at) => now - at < crashLoop.withinMs), now];
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      if (crashTimes.length >= crashLoop.crashes) {
        log(
          `the server ${how}, and has now crashed ${crashTimes.length} times within ` +
            `${Math.round(crashLoop.withinMs / 1000)} s: it is in a crash loop, so it is not ` +
            'restarted again. Its last output is above; fix the cause and run npm start again.',
        );
        return finish(1);
      }
      const delay = delaysMs[Math.min(crashTimes.length - 1, delaysMs.length - 1)] ?? 1000;
      log(
        `the server ${how} after ${(ranMs / 1000).toFixed(1)} s; restarting it in ` +
          `${(delay / 1000).toFixed(1)} s (crash ${crashTimes.length} of ${crashLoop.crashes} ` +
          `allowed within ${Math.round(crashLoop.withinMs / 1000)} s).`,
      );
      restartTimer = setTimeout(() => {
        restartTimer = undefined;
        if (!stopping) start();
      }, delay);
    });
    options.onStart?.(running);
  };

  const stop = (/** @type {NodeJS.Signals} */ signal = 'SIGTERM') => {
    if (stopping) return;
    stopping = true;
    if (restartTimer) clearTimeout(restartTimer);
    // The server closes gracefully on SIGINT and SIGTERM (jobs stopped, files settled).
    if (child) child.kill(signal);
    else finish(0);
  };

  start();
  return { done, stop };
}
