import type { ChildProcess } from 'node:child_process';

export interface SuperviseOptions {
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Pauses before the 1st, 2nd, ... restart in a row (the last repeats). */
  delaysMs?: number[];
  /** A run this long resets the pauses and the crash count. */
  stableAfterMs?: number;
  /** This many crashes within this long: give up. */
  crashLoop?: { crashes: number; withinMs: number };
  log?: (line: string) => void;
  onStart?: (child: ChildProcess) => void;
}

export function supervise(options: SuperviseOptions): {
  done: Promise<number>;
  stop(signal?: NodeJS.Signals): void;
};
