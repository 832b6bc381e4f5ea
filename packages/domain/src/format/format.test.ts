import { describe, expect, it } from 'vitest';
import {
  formatCredits,
  formatDuration,
  formatRelativeTime,
  formatViewCount,
  formatWait,
} from './index.js';

describe('formatters', () => {
  it('words a wait never shorter than it is', () => {
    expect(formatWait(3574)).toBe('1 hour');
    expect(formatWait(3601)).toBe('1 hour and 1 minute');
    expect(formatWait(7200)).toBe('2 hours');
    expect(formatWait(600)).toBe('10 minutes');
    expect(formatWait(61)).toBe('2 minutes');
    expect(formatWait(60)).toBe('1 minute');
    expect(formatWait(59)).toBe('59 seconds');
    expect(formatWait(1)).toBe('1 second');
    expect(formatWait(0)).toBe('1 second');
  });
  it('shows credits divided by 10 to one decimal', () => {
    expect(formatCredits(600)).toBe('60');
    expect(formatCredits(15)).toBe('1.5');
    expect(formatCredits(0)).toBe('0');
  });
  it('abbreviates view counts', () => {
    expect(formatViewCount(999)).toBe('999');
    expect(formatViewCount(1000)).toBe('1K');
    expect(formatViewCount(1550)).toBe('1.5K');
    expect(formatViewCount(2_300_000)).toBe('2.3M');
    expect(formatViewCount(7_000_000_000)).toBe('7B');
  });
  it('gives relative times', () => {
    const now = Date.UTC(2026, 0, 1);
    expect(formatRelativeTime(now - 10_000, now)).toBe('just now');
    expect(formatRelativeTime(now - 5 * 60_000, now)).toBe('5 minutes ago');
    expect(formatRelativeTime(now - 3600_000, now)).toBe('1 hour ago');
    expect(formatRelativeTime(now - 3 * 86400_000, now)).toBe('3 days ago');
    expect(formatRelativeTime(now - 45 * 86400_000, now)).toBe('1 month ago');
    expect(formatRelativeTime(now - 800 * 86400_000, now)).toBe('2 years ago');
  });
  it('formats durations', () => {
    expect(formatDuration(65_000)).toBe('1:05');
    expect(formatDuration(3_725_000)).toBe('1:02:05');
  });
});
