import { describe, expect, it } from 'vitest';
import {
  heardPastLength,
  speechBreaks,
  speechEndMs,
  joinSplitWords,
  storedSegments,
  storedTranscript,
  toApiTranscript,
  transcriptWords,
} from './index.js';

const row = {
  language: 'en',
  durationMs: 4_000,
  segments: [
    {
      startMs: 2_000,
      endMs: 3_500,
      text: 'to the moon',
      words: [
        { text: 'moon', startMs: 3_000, endMs: 3_500, confidence: 0.8 },
        { text: 'to', startMs: 2_000, endMs: 2_200 },
      ],
    },
    {
      startMs: 0,
      endMs: 1_500,
      text: 'we choose',
      words: [{ text: 'we', startMs: 0, endMs: 300 }],
    },
    { text: 'a segment from a damaged row without times' },
  ],
};

describe('stored transcript mapping', () => {
  it('reads a row without passing on malformed segments, defaulting missing confidence', () => {
    const segments = storedSegments(row.segments);
    expect(segments).toHaveLength(2);
    expect(segments[0]!.words[1]).toEqual({
      text: 'to',
      startMs: 2_000,
      endMs: 2_200,
      confidence: 1,
    });
    expect(storedSegments(null)).toEqual([]);
  });

  it('maps to the API shape in ms and lists words in time order', () => {
    const transcript = storedTranscript(row);
    const api = toApiTranscript('task-1', transcript);
    expect(api).toMatchObject({ task_id: 'task-1', language: 'en', duration_ms: 4_000 });
    expect(api.segments[0]).toMatchObject({ start: 2_000, end: 3_500, text: 'to the moon' });
    expect(api.segments[0]!.words[0]).toEqual({
      text: 'moon',
      start: 3_000,
      end: 3_500,
      confidence: 0.8,
    });
    expect(transcriptWords(transcript.segments).map((word) => word.text)).toEqual([
      'we',
      'to',
      'moon',
    ]);
  });
});

describe('joinSplitWords ("ill -disposed" in every caption)', () => {
  const word = (text: string, startMs: number, endMs: number, confidence = 0.9) => ({
    text,
    startMs,
    endMs,
    confidence,
  });

  it('joins hyphenated compounds and split contractions, keeping the span and the weaker probability', () => {
    const joined = joinSplitWords([
      word('an', 0, 100),
      word('ill', 120, 300, 0.53),
      word('-disposed', 300, 700, 0.85),
      word('four-', 800, 1000),
      word('tier', 1000, 1300),
      word('we', 1400, 1500),
      word('did', 1500, 1700),
      word("n't", 1700, 1800, 0.4),
      word('I', 1900, 2000),
      word('’m', 2000, 2100),
      word('40', 2200, 2400),
      word('%.', 2400, 2500),
    ]);
    expect(joined.map((w) => w.text)).toEqual([
      'an',
      'ill-disposed',
      'four-tier',
      'we',
      "didn't",
      'I’m',
      '40%.',
    ]);
    expect(joined[1]).toEqual(word('ill-disposed', 120, 700, 0.53));
    expect(joined[4]).toMatchObject({ startMs: 1500, endMs: 1800, confidence: 0.4 });
  });

  it('leaves dashes, quotes, clause ends and parts after a pause alone', () => {
    const words = [
      word('Yes.', 0, 300),
      word('-Well', 320, 600),
      word('-', 700, 750),
      word('rock', 800, 1000),
      word("'n'", 1020, 1100),
      word('well', 1200, 1400),
      word('-known', 2000, 2300),
      word("'cause", 2400, 2600),
      word('in', 2700, 2800),
      word('2023.', 2800, 3200),
      word('5', 3300, 3400),
    ];
    expect(joinSplitWords(words).map((w) => w.text)).toEqual(words.map((w) => w.text));
  });
});

describe('speech breaks', () => {
  it('are the middles of pauses and the ends of sentences, not the gaps inside a phrase', () => {
    const words = [
      { text: 'We', startMs: 0, endMs: 200 },
      { text: 'grew', startMs: 250, endMs: 500 },
      { text: 'fast.', startMs: 520, endMs: 900 },
      { text: 'Then', startMs: 1000, endMs: 1200 },
      { text: 'we', startMs: 1250, endMs: 1400 },
      { text: 'paused', startMs: 2400, endMs: 2800 },
    ];
    expect(speechBreaks([{ words }])).toEqual([950, 1900]);
  });
});

describe('speech past the measured length', () => {
  const said = (text: string, startMs: number, endMs: number) => ({
    startMs,
    endMs,
    text,
    words: text.split(' ').map((w, i, all) => {
      const slot = (endMs - startMs) / all.length;
      return { text: w, startMs: startMs + i * slot, endMs: startMs + (i + 1) * slot };
    }),
  });

  it('ends with the last word, or a segment heard without word times, and is 0 for silence', () => {
    expect(speechEndMs([said('hello there', 0, 1_000), said('and goodbye', 5_000, 7_000)])).toBe(
      7_000,
    );
    // Segments heard without word times: one with a word in it, one with only a space.
    const hummed = { startMs: 500, endMs: 9_000, text: 'hm', words: [] };
    const blank = { startMs: 0, endMs: 9_000, text: ' ', words: [] };
    expect(speechEndMs([said('hi', 0, 500), hummed])).toBe(9_000);
    expect(speechEndMs([blank])).toBe(0);
    expect(speechEndMs([])).toBe(0);
  });

  it('proves a file longer than measured only past the slack engines need at the very end', () => {
    const twentySeconds = 20_000;
    expect(heardPastLength([said('the last words', 18_000, 21_500)], twentySeconds)).toBe(false);
    expect(heardPastLength([said('the last words', 18_000, 22_500)], twentySeconds)).toBe(true);
    // A whole hour heard from a file measured at 20 s.
    expect(heardPastLength([said('still talking', 3_599_000, 3_600_000)], twentySeconds)).toBe(
      true,
    );
  });
});
