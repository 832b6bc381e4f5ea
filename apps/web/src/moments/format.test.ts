import { describe, expect, it } from 'vitest';
import { absoluteLink, formatClipLength, formatSpan, reasonLabel } from './format';

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
});
