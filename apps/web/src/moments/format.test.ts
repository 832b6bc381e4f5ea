import { describe, expect, it } from 'vitest';
import { absoluteLink, formatClipLength, formatSpan, reasonLabel, shownBreakdown } from './format';

describe('moment formatting', () => {
  it('shows spans and clip lengths the way a viewer reads them', () => {
    expect(formatSpan(65_000, 100_400)).toBe('1:05 – 1:40');
    expect(formatClipLength(0, 34_600)).toBe('35 s');
    expect(formatClipLength(10_000, 90_000)).toBe('1 min 20 s');
    expect(formatClipLength(0, 120_000)).toBe('2 min');
  });

  it('names reasons', () => {
    expect(reasonLabel('hook')).toBe('Strong hook');
    expect(reasonLabel('novelty')).toBe('Novelty');
  });

  it('makes absolute share links on the current origin', () => {
    expect(absoluteLink('/home/moment/abc', 'https://clips.example')).toBe(
      'https://clips.example/home/moment/abc',
    );
  });

  it('lists each reason once, in points that add up to the score on the card', () => {
    const shown = shownBreakdown({
      type: 'video_snippet',
      score: 67,
      reasons: [
        { kind: 'payoff', detail: 'It gives clear, usable advice', weight: 30.4 },
        { kind: 'payoff', detail: 'It is a whole thought', weight: 12.2 },
        { kind: 'hook', detail: 'It gives a striking number', weight: 31.1 },
        { kind: 'penalty', detail: 'It runs past a minute', weight: -6.7 },
      ],
    });
    expect(shown.score).toBe(67);
    expect(shown.reasons.map((reason) => reason.label)).toEqual([
      'Complete thought with a payoff',
      'Strong hook',
      'What held it back',
    ]);
    expect(shown.reasons.reduce((sum, reason) => sum + reason.weight, 0)).toBe(67);
    expect(shown.reasons.map((reason) => reason.amount)).toEqual(['+43 pts', '+31 pts', '−7 pts']);
    expect(shown.total).toBe('Total: 67 pts');
  });

  it("shows a question's relevance on its own scale, never more than the score", () => {
    const shown = shownBreakdown({
      type: 'search_snippet',
      score: 100,
      reasons: [{ kind: 'relevance', detail: 'Answers "how much to save"', weight: 110 }],
    });
    expect(shown.reasons).toMatchObject([{ label: 'Answers the question', amount: '100% match' }]);
    expect(shown.total).toBeUndefined();
  });
});
