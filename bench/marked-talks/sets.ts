/**
 * The sets of marked talks: dev and dev2 (rules may be tried on them; dev2 was written by a second
 * writer kept away from the code) and frozen (evaluation only).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadMarkedTalks, spokenMarkedTalk, transcriptFile, type SpokenMarkedTalk } from './talks';

const BENCH = join(import.meta.dirname, '..');

export const MARKED_SETS = {
  dev: join(BENCH, 'dev'),
  dev2: join(BENCH, 'dev2'),
  frozen: join(BENCH, 'frozen'),
} as const;

export type MarkedSetName = keyof typeof MARKED_SETS;

/** Every talk of a set, spoken and transcribed (kept, gzipped, in the set's `transcripts/`). */
export async function spokenSet(
  set: MarkedSetName,
  onTalk?: (talk: SpokenMarkedTalk, seconds: number) => void,
  options: { cachedOnly?: boolean } = {},
): Promise<SpokenMarkedTalk[]> {
  const dir = MARKED_SETS[set];
  const spoken: SpokenMarkedTalk[] = [];
  for (const talk of await loadMarkedTalks(set, join(dir, 'talks'))) {
    // While a set is still being spoken, the tuning scripts work on the talks done so far.
    if (options.cachedOnly && !existsSync(transcriptFile(join(dir, 'transcripts'), talk))) continue;
    const started = performance.now();
    spoken.push(await spokenMarkedTalk(talk, join(dir, 'transcripts')));
    onTalk?.(spoken.at(-1)!, (performance.now() - started) / 1000);
  }
  return spoken;
}
