import { describe, expect, it } from 'vitest';
import { exceedsPlatformLength, safeRect } from './index.js';

describe('platform safe zones', () => {
  it("keeps TikTok's top 10 %, bottom 20 % and right 12 % clear on a 1080x1920 frame", () => {
    const rect = safeRect('tiktok', { width: 1080, height: 1920 });
    expect(rect.y).toBe(192);
    expect(rect.y + rect.h).toBe(1536);
    expect(rect.x + rect.w).toBe(950);
    expect(rect.x).toBeGreaterThan(0);
  });

  it('warns only past the platform length', () => {
    expect(exceedsPlatformLength('youtube_shorts', 181_000)).toBe(true);
    expect(exceedsPlatformLength('youtube_shorts', 60_000)).toBe(false);
    expect(exceedsPlatformLength('generic', 3_600_000)).toBe(false);
  });
});
