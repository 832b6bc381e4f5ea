import type { TaskPartial } from '@moments/contract';
import { describe, expect, it } from 'vitest';
import { recordTaskPartial, taskPartial } from './partials';

const line = (startS: number, text: string) => ({
  start_ms: startS * 1000,
  end_ms: startS * 1000 + 4000,
  text,
});
const growth = (chunksDone: number, added: TaskPartial['added'], title: string): TaskPartial => ({
  transcribed_ms: chunksDone * 60_000,
  chunks_done: chunksDone,
  chunk_count: 3,
  added,
  moments: [{ start_ms: 0, end_ms: 30_000, title, score: 70 }],
});

describe('the transcript so far on a task page opened late', () => {
  it('joins what was heard before the page opened with what is pushed after', () => {
    // The page loads chunks 1-2, then chunk 3 is pushed.
    recordTaskPartial('t-late', growth(2, [line(1, 'first'), line(61, 'second')], 'early pick'));
    recordTaskPartial('t-late', growth(3, [line(121, 'third')], 'better pick'));
    const shown = taskPartial('t-late')!;
    expect(shown.lines.map((l) => l.text)).toEqual(['first', 'second', 'third']);
    expect(shown).toMatchObject({ chunksDone: 3, transcribedMs: 180_000 });
    expect(shown.moments.map((m) => m.title)).toEqual(['better pick']);
  });

  it('keeps the newer push when the load answers after it', () => {
    // Chunk 3 is pushed while the page's load (chunks 1-2) is still on its way.
    recordTaskPartial('t-race', growth(3, [line(121, 'third')], 'better pick'));
    recordTaskPartial('t-race', growth(2, [line(1, 'first'), line(61, 'second')], 'early pick'));
    const shown = taskPartial('t-race')!;
    expect(shown.lines.map((l) => l.text)).toEqual(['first', 'second', 'third']);
    expect(shown).toMatchObject({ chunksDone: 3, transcribedMs: 180_000 });
    expect(shown.moments.map((m) => m.title)).toEqual(['better pick']);
  });
});
