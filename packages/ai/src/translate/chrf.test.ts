import { describe, expect, it } from 'vitest';
import { corpusChrF } from './chrf';

describe('chrF', () => {
  it('is 100 for a perfect match, 0 for nothing in common, and in between for a near miss', () => {
    expect(corpusChrF(['the cat sat'], ['the cat sat'])).toBeCloseTo(100, 6);
    expect(corpusChrF(['xyz'], ['abc'])).toBe(0);
    const near = corpusChrF(['the cat sat on a mat'], ['the cat sat on the mat']);
    expect(near).toBeGreaterThan(60);
    expect(near).toBeLessThan(100);
  });

  it('matches sacreBLEU 2.4.3 (CHRF().corpus_score) on known pairs', () => {
    expect(corpusChrF(['Das ist ein Test.'], ['Dies ist ein Test.'])).toBeCloseTo(77.9096, 3);
    expect(
      corpusChrF(
        ['the cat sat on a mat', '我们第一周卖出了2500本。'],
        ['the cat sat on the mat', '我们第一周卖了2500本书。'],
      ),
    ).toBeCloseTo(62.8754, 3);
  });
});
