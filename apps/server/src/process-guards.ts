import { currentRunIds } from './queue/run-context.js';
import type { Logger } from './logging.js';

/**
 * The last line of defence of a server process. A promise rejected with nobody to
 * handle it is a bug in one piece of work, not in the process: it is logged with the ids of the
 * run it came from and the server keeps serving everyone else. An exception thrown outside any
 * promise (an event handler, a timer) may have left shared state half-changed: it is logged and
 * the process exits with 1, so its supervisor (`npm start`, systemd) starts a clean one.
 */
export function installProcessGuards(
  log: Logger,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  process.on('unhandledRejection', (reason) => {
    log.error(
      { err: reason, ...currentRunIds() },
      'unhandled promise rejection (a bug: logged, the server keeps running)',
    );
  });
  process.on('uncaughtException', (err, origin) => {
    log.fatal(
      { err, origin, ...currentRunIds() },
      'uncaught exception: exiting so the supervisor starts a clean process',
    );
    exit(1);
  });
}
