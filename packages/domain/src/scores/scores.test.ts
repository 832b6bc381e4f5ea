import { describe, expect, it } from 'vitest';
import { SCORE_BANDS, scoreBreakdown, scoreTier, type ScorePart } from './index';

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

const sumOf = (parts: readonly ScorePart[]) => parts.reduce((sum, part) => sum + part.weight, 0);

describe('a score and its breakdown', () => {
  it('shows each reason once, in whole points that add up to the score', () => {
    const { score, parts } = scoreBreakdown([
      { kind: 'payoff', detail: 'It gives clear, usable advice', weight: 21.4 },
      { kind: 'hook', detail: 'It gives a striking number', weight: 18.35 },
      { kind: 'payoff', detail: 'It is a whole thought', weight: 12.6 },
      {
        kind: 'judge',
        detail: 'Lowered: it opens on a word that needs the sentence before',
        weight: -7.2,
      },
    ]);
    expect(score).toBe(45);
    expect(sumOf(parts)).toBe(score);
    expect(parts.filter((part) => part.kind === 'payoff')).toHaveLength(1);
    expect(parts.find((part) => part.kind === 'payoff')?.detail).toBe(
      'It gives clear, usable advice; It is a whole thought',
    );
    expect(parts.every((part) => Number.isInteger(part.weight))).toBe(true);
    expect(parts.at(-1)).toMatchObject({ kind: 'judge', weight: -7 });
  });

  it('keeps the score within 0..100 and the lines adding up to it', () => {
    const high = scoreBreakdown([
      { kind: 'relevance', detail: 'Answers the question', weight: 110 },
    ]);
    expect(high).toEqual({
      score: 100,
      parts: [{ kind: 'relevance', detail: 'Answers the question', weight: 100 }],
    });
    const low = scoreBreakdown([
      { kind: 'hook', detail: 'a number', weight: 10 },
      { kind: 'judge', detail: 'Lowered: a sign-off', weight: -30 },
    ]);
    expect(low.score).toBe(0);
    expect(sumOf(low.parts)).toBe(0);
  });

  it('scales the lines of a stored score to it, so an older moment still adds up', () => {
    const { score, parts } = scoreBreakdown(
      [
        { kind: 'hook', detail: 'a number', weight: 30 },
        { kind: 'payoff', detail: 'a whole thought', weight: 29 },
      ],
      67,
    );
    expect(score).toBe(67);
    expect(sumOf(parts)).toBe(67);
    expect(parts.map((part) => part.kind)).toEqual(['hook', 'payoff']);
  });

  it('shows no lines when none of them carries points', () => {
    expect(scoreBreakdown([{ kind: 'judge', detail: 'Chosen', weight: 0 }], 40)).toEqual({
      score: 40,
      parts: [],
    });
  });
});
