import { describe, expect, it } from 'vitest';
import { normalizeForWordErrorRate, wordErrorDetails, wordErrorRate } from './index';

const JFK =
  'And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.';

describe('wordErrorRate', () => {
  it('ignores case and punctuation, so a correctly heard sentence scores 0', () => {
    expect(
      wordErrorRate(
        JFK,
        ' and so my fellow americans ask not what your country can do for you ask what you can do for your country',
      ),
    ).toBe(0);
  });

  it('counts a substitution, a deletion and an insertion against the reference length', () => {
    // reference has 4 words; "the" -> "a" (substitution), "big" dropped, "today" added
    const details = wordErrorDetails('the big red dog', 'a red dog today');
    expect(details).toMatchObject({
      substitutions: 1,
      deletions: 1,
      insertions: 1,
      referenceWords: 4,
    });
    expect(details.wordErrorRate).toBeCloseTo(3 / 4);
  });

  it('keeps numbers as written and symbols as words, as captions would show them', () => {
    expect(normalizeForWordErrorRate('It costs $20, 100% sure!')).toEqual([
      'it',
      'costs',
      '$',
      '20',
      '100',
      '%',
      'sure',
    ]);
    expect(wordErrorRate('twenty people', '20 people')).toBe(0.5);
  });

  it('keeps contractions whole and splits hyphenated words', () => {
    expect(normalizeForWordErrorRate("Don't re-use it")).toEqual(['dont', 're', 'use', 'it']);
  });

  it('scores scripts without spaces per character', () => {
    expect(normalizeForWordErrorRate('你好，世界')).toEqual(['你', '好', '世', '界']);
    expect(wordErrorRate('你好世界', '你好世间')).toBe(0.25);
  });

  it('handles empty texts', () => {
    expect(wordErrorRate('', '')).toBe(0);
    expect(wordErrorRate('', 'hello')).toBe(1);
    expect(wordErrorRate('hello world', '')).toBe(1);
  });
});
