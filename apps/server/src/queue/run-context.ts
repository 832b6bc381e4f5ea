import { AsyncLocalStorage } from 'node:async_hooks';

/** The ids of the background run a piece of work belongs to (errors name their run). */
export interface RunIds {
  queue?: string;
  queueJobId?: string;
  taskId?: string;
  jobId?: string;
  userId?: string;
  runToken?: string;
  /** Any other id a job's payload names (a refund's charge key). */
  [id: string]: string | undefined;
}

const runIds = new AsyncLocalStorage<RunIds>();

/**
 * Runs `work` with `ids` as its run context: everything it starts (timers, child processes,
 * promises) carries them, so an error that escapes it, even as an unhandled rejection, is
 * logged with the run it came from.
 */
export function withRunIds<T>(ids: RunIds, work: () => Promise<T>): Promise<T> {
  return runIds.run({ ...runIds.getStore(), ...ids }, work);
}

/** Adds ids learnt during the run (its user, once its row is read). */
export function addRunIds(ids: RunIds): void {
  const store = runIds.getStore();
  if (store) Object.assign(store, ids);
}

/** The ids of the run the caller is part of, if any. */
export function currentRunIds(): RunIds {
  return { ...runIds.getStore() };
}
