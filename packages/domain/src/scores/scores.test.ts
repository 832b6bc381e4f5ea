import { describe, expect, it } from 'vitest';
import { SCORE_BANDS, scoreTier } from './index';

describe('score bands', () => {
  it('puts a score in the band the moments page names for it', () => {
    expect([scoreTier(85), scoreTier(55), scoreTier(12)]).toEqual(['high', 'medium', 'low']);
  });

  it('starts each band at its edge', () => {
    expect(scoreTier(SCORE_BANDS.high)).toBe('high');
    expect(scoreTier(SCORE_BANDS.high - 1)).toBe('medium');
    expect(scoreTier(SCORE_BANDS.medium)).toBe('medium');
    expect(scoreTier(SCORE_BANDS.medium - 1)).toBe('low');
    expect([scoreTier(0), scoreTier(100)]).toEqual(['low', 'high']);
  });
});
