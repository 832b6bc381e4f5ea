import { describe, expect, it } from 'vitest';
import {
  avoidLoneWords,
  balanceLines,
  fillerIndexes,
  groupIntoCues,
  keptSpans,
  timeInCut,
  withoutFillers,
  type TimedWord,
} from './index';

/** Words one after another, 300 ms each with 100 ms gaps, from `startMs`. */
function spoken(text: string, startMs = 0): TimedWord[] {
  return text.split(' ').map((word, index) => ({
    text: word,
    startMs: startMs + index * 400,
    endMs: startMs + index * 400 + 300,
  }));
}

describe('filler words', () => {
  it('finds hesitations and stutters but keeps a deliberate repeat after a pause', () => {
    const words = spoken('So um I I think, uh, the the plan works');
    const kept = withoutFillers(words).map((word) => word.text);
    expect(kept).toEqual(['So', 'I', 'think,', 'the', 'plan', 'works']);
    const apart = [
      { text: 'very', startMs: 0, endMs: 300 },
      { text: 'very', startMs: 2000, endMs: 2300 },
    ];
    expect(fillerIndexes(apart).size).toBe(0);
  });

  it('cuts the filler spans out of the clip and maps later times into the cut', () => {
    const words = spoken('we um ship today');
    // "um" spans 400-700; its neighbours end at 300 and start at 800.
    const spans = keptSpans(words, 0, 1500);
    expect(spans).toEqual([
      { startMs: 0, endMs: 350 },
      { startMs: 750, endMs: 1500 },
    ]);
    expect(timeInCut(spans, 800)).toBe(400);
    expect(timeInCut(spans, 500)).toBe(350);
    expect(keptSpans(spoken('no fillers here'), 0, 1200)).toEqual([{ startMs: 0, endMs: 1200 }]);
  });
});

describe('subtitle cues', () => {
  it('takes each cue time from its first and last word', () => {
    const words = spoken('This is the first sentence. And here comes a second one that goes on');
    const cues = groupIntoCues(words, { maxLineChars: 20 });
    expect(cues.length).toBeGreaterThan(1);
    for (const cue of cues) {
      expect(cue.startMs).toBe(words[cue.firstWord]!.startMs);
      expect(cue.endMs).toBe(words[cue.lastWord]!.endMs);
      expect(cue.text.length).toBeLessThanOrEqual(40);
    }
    expect(cues.map((cue) => cue.text).join(' ')).toBe(words.map((w) => w.text).join(' '));
  });

  it('starts a new cue at a turn and after a long pause', () => {
    const words = [...spoken('hello there'), ...spoken('yes hi', 3000), ...spoken('and you', 3800)];
    const cues = groupIntoCues(words, { turnStarts: new Set([4]) });
    expect(cues.map((cue) => cue.text)).toEqual(['hello there', 'yes hi', 'and you']);
  });

  it('balances a long cue over two lines', () => {
    expect(balanceLines('one two three four five six seven eight nine ten eleven', 30)).toBe(
      'one two three four five six\nseven eight nine ten eleven',
    );
    expect(balanceLines('short line')).toBe('short line');
    // The middle would leave one long word alone; the break moves in by a word.
    expect(balanceLines('I do like incomprehensibilities', 20)).toBe(
      'I do\nlike incomprehensibilities',
    );
    expect(balanceLines('Antidisestablishmentarianism wins.', 20)).toBe(
      'Antidisestablishmentarianism\nwins.',
    );
  });

  it('leaves no cue of one lone word at the end of a sentence cut for length', () => {
    // The first cue fills up just before the last word; a pause follows the sentence.
    const words = [
      ...spoken('she said the old phone in the kitchen is dead.'),
      ...spoken('Then we left', 9000),
    ];
    const cues = groupIntoCues(words, { maxLineChars: 20 });
    expect(cues.map((cue) => cue.text)).toEqual([
      'she said the old phone in the kitchen',
      'is dead.',
      'Then we left',
    ]);
    for (const cue of cues) expect(cue.text.length).toBeLessThanOrEqual(40);
    expect(cues.map((cue) => cue.text).join(' ')).toBe(words.map((w) => w.text).join(' '));
  });
});

describe('avoidLoneWords', () => {
  const fits = (words: readonly string[]) => words.join(' ').length <= 12;
  it('takes a word from the page before, or joins it, only where the speech runs on', () => {
    const continues = () => true;
    expect(avoidLoneWords([['aa', 'bb', 'cc'], ['dd']], { continues, fits })).toEqual([
      ['aa', 'bb'],
      ['cc', 'dd'],
    ]);
    expect(avoidLoneWords([['aa', 'bb'], ['cc']], { continues, fits })).toEqual([
      ['aa', 'bb', 'cc'],
    ]);
    expect(avoidLoneWords([['aa', 'bb'], ['cc']], { continues: () => false, fits })).toEqual([
      ['aa', 'bb'],
      ['cc'],
    ]);
  });
});
