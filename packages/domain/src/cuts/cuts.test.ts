import { describe, expect, it } from 'vitest';
import { fillerIndexes, type TimedWord } from '../captions/index';
import {
  cutTimeOf,
  cutsOfDeleted,
  deletedIndexes,
  sentenceAround,
  cutsProblem,
  planCut,
  pauseCutSpans,
  skipRemoved,
  snapCutToWords,
  speechPauses,
  wordsKept,
} from './index';

/** Words one after another, 300 ms each with 100 ms gaps, from `startMs`. */
function spoken(text: string, startMs = 0): TimedWord[] {
  return text.split(' ').map((word, index) => ({
    text: word,
    startMs: startMs + index * 400,
    endMs: startMs + index * 400 + 300,
  }));
}

const fillersOf = (text: string) => {
  const words = spoken(text);
  return [...fillerIndexes(words)].sort((a, b) => a - b).map((i) => words[i]!.text);
};

describe('filler rules', () => {
  it('finds hesitation sounds', () => {
    expect(fillersOf('So um we uh, erm, shipped it')).toEqual(['um', 'uh,', 'erm,']);
  });

  it('takes "you know" and "I mean" only where they are set off from the sentence', () => {
    expect(fillersOf('It was, you know, late.')).toEqual(['you', 'know,']);
    expect(fillersOf('I mean, sure it works.')).toEqual(['I', 'mean,']);
    expect(fillersOf('It was late, you know?')).toEqual(['you', 'know?']);
    expect(fillersOf('You know what I did?')).toEqual([]);
    expect(fillersOf('Do you know, the answer?')).toEqual([]);
    expect(fillersOf('I mean it this time.')).toEqual([]);
    expect(fillersOf('I know you know him.')).toEqual([]);
  });

  it('takes "like" only between commas, never the verb or the comparison', () => {
    expect(fillersOf('And, like, everyone came.')).toEqual(['like,']);
    expect(fillersOf('So um like, we left.')).toEqual(['um', 'like,']);
    expect(fillersOf('I like it.')).toEqual([]);
    expect(fillersOf('It looks like rain, like always.')).toEqual([]);
    expect(fillersOf('I like, pizza.')).toEqual([]);
  });

  it('keeps a repeat for emphasis but drops a stutter', () => {
    expect(fillersOf('I I think it is very, very good')).toEqual(['I']);
  });
});

describe('cuts', () => {
  const clip = { startMs: 0, endMs: 4000 };

  it('refuses cuts outside the clip, overlapping ones, and cuts of everything', () => {
    expect(cutsProblem([{ startMs: 100, endMs: 200 }], clip)).toBeNull();
    expect(cutsProblem([{ startMs: 3900, endMs: 4100 }], clip)?.code).toBe('CUT_OUT_OF_RANGE');
    expect(cutsProblem([{ startMs: 300, endMs: 300 }], clip)?.code).toBe('CUT_OUT_OF_RANGE');
    expect(
      cutsProblem(
        [
          { startMs: 100, endMs: 900 },
          { startMs: 800, endMs: 1200 },
        ],
        clip,
      )?.code,
    ).toBe('CUTS_OVERLAP');
    expect(
      cutsProblem(
        [
          { startMs: 0, endMs: 2000 },
          { startMs: 2000, endMs: 3800 },
        ],
        clip,
      )?.code,
    ).toBe('CUTS_REMOVE_EVERYTHING');
  });

  it('moves a cut to word boundaries, to the middle of the pauses beside', () => {
    const words = spoken('one two three four five');
    // The cut covers the middle of "two" (550) and "three" (950), not of "four" (1350).
    expect(snapCutToWords({ startMs: 500, endMs: 1000 }, words, clip)).toEqual({
      startMs: 350,
      endMs: 1150,
    });
    // A cut in a pause takes only the pause.
    expect(snapCutToWords({ startMs: 290, endMs: 460 }, words, clip)).toEqual({
      startMs: 300,
      endMs: 400,
    });
  });

  it('plans one cut of words, fillers and long pauses, and maps times onto it', () => {
    const words = [...spoken('we um ship it'), ...spoken('later today', 3000)];
    const plan = planCut({
      clip,
      words,
      cuts: [{ startMs: 1200, endMs: 1500 }],
      removeFillers: true,
      minPauseMs: 300,
    });
    // "um" (400-700) and "it" (1200-1500) go; the pause 1100-3000 left around the deleted word
    // is shortened to 300 ms in all: 50 ms before the word's cut, 100 + 150 ms after it.
    expect(plan.removed).toEqual([
      { startMs: 350, endMs: 750 },
      { startMs: 1150, endMs: 2250 },
      { startMs: 2350, endMs: 2850 },
    ]);
    expect(wordsKept(words, plan.removed).map((w) => w.text)).toEqual([
      'we',
      'ship',
      'later',
      'today',
    ]);
    expect(plan.durationMs).toBe(4000 - 400 - 1100 - 500);
    expect(cutTimeOf(plan.kept, 800)).toBe(400);
    // "later" starts 300 ms after "ship" ends (1100 in the cut).
    expect(cutTimeOf(plan.kept, 3000) - cutTimeOf(plan.kept, 1100)).toBe(300);
    expect(skipRemoved(plan.removed, 1500)).toBe(2250);
    expect(skipRemoved(plan.removed, 900)).toBe(900);
  });

  it('finds pauses from the audio energy, keeping words that start in a silence', () => {
    const words = [
      { text: 'hello', startMs: 0, endMs: 1500 }, // stretched over the pause by the transcriber
      { text: 'soft', startMs: 2000, endMs: 2300 }, // quieter than the silence threshold
      { text: 'there', startMs: 3000, endMs: 3400 },
    ];
    const silences = [{ startMs: 500, endMs: 2900 }];
    expect(speechPauses(words, { startMs: 0, endMs: 3400 }, silences)).toEqual([
      { startMs: 500, endMs: 2000 },
      { startMs: 2300, endMs: 2900 },
    ]);
    expect(speechPauses(words, { startMs: 0, endMs: 3400 }, undefined)).toEqual([
      { startMs: 1500, endMs: 2000 },
      { startMs: 2300, endMs: 3000 },
    ]);
    expect(pauseCutSpans([{ startMs: 500, endMs: 2000 }], 300)).toEqual([
      { startMs: 650, endMs: 1850 },
    ]);
  });
});

describe('deleting words in the editor', () => {
  it('turns runs of deleted words into cuts and back, and finds a sentence', () => {
    const words = spoken('One two. Three four five. Six');
    const cuts = cutsOfDeleted(words, new Set([0, 2, 3]));
    expect(cuts).toEqual([
      { startMs: 0, endMs: 300 },
      { startMs: 800, endMs: 1500 },
    ]);
    expect([...deletedIndexes(words, cuts)]).toEqual([0, 2, 3]);
    expect(sentenceAround(words, 3)).toEqual([2, 3, 4]);
    expect(sentenceAround(words, 0)).toEqual([0, 1]);
    expect(sentenceAround(words, 5)).toEqual([5]);
  });
});
