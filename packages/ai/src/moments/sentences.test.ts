import { describe, expect, it } from 'vitest';
import { splitSentences } from './sentences';
import type { Transcript } from './types';

/** Segments as a speech engine gives them: each a list of words, timed 300 ms a word. */
function transcriptOf(segments: string[], gapMs = 500): Transcript {
  let at = 0;
  return {
    language: 'en',
    durationMs: 0,
    segments: segments.map((text) => {
      const words = text.split(' ').map((word) => {
        const placed = { text: word, startMs: at, endMs: at + 280, confidence: 0.9 };
        at += 300;
        return placed;
      });
      at += gapMs;
      return { startMs: words[0]!.startMs, endMs: words.at(-1)!.endMs, text, words };
    }),
  };
}

const texts = (transcript: Transcript) => splitSentences(transcript).map((s) => s.text);

describe('splitSentences', () => {
  it('takes the segments of a transcript without punctuation as its sentences', () => {
    const transcript = transcriptOf([
      'Most people water their tomatoes every evening',
      'That is the worst time to do it',
      'The leaves stay wet all night,',
      'and mildew loves that',
      "I'm serious about this",
      'Water in the morning instead',
    ]);
    const sentences = splitSentences(transcript);
    expect(sentences.map((s) => s.text)).toEqual([
      'Most people water their tomatoes every evening.',
      'That is the worst time to do it.',
      // A comma, a lower-case opening or "I" carries the sentence on into the next segment.
      "The leaves stay wet all night, and mildew loves that I'm serious about this.",
      'Water in the morning instead.',
    ]);
    // Each is a finished thought a clip may end on.
    expect(sentences.every((s) => s.terminal)).toBe(true);
  });

  it('keeps a punctuated sentence whole where a segment breaks before a name', () => {
    const transcript = transcriptOf(
      [
        'We run forty vans across the Scottish',
        'Highlands. The winters there are long.',
        'Batteries hate the cold.',
      ],
      0,
    );
    expect(texts(transcript)).toEqual([
      'We run forty vans across the Scottish Highlands.',
      'The winters there are long.',
      'Batteries hate the cold.',
    ]);
  });

  it('ends sentences at segments in a script without capitals', () => {
    const transcript = transcriptOf(['今天 我们 谈谈 睡眠', '大多数 人 睡 得 太 少', '这 很 危险']);
    expect(texts(transcript)).toEqual([
      '今天 我们 谈谈 睡眠',
      '大多数 人 睡 得 太 少',
      '这 很 危险',
    ]);
  });
});
