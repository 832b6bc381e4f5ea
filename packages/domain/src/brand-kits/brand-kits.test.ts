import { describe, expect, it } from 'vitest';
import { safeRect } from '../platforms/index.js';
import { brandKitLimit } from '../plans/index.js';
import { brandKitForClip, defaultBrandKit, mergeKitStyle, placeLogo } from './index.js';

const frame = { width: 1080, height: 1920 };

describe('placeLogo', () => {
  it('puts the logo in the chosen corner at the chosen width, its shape kept', () => {
    const topLeft = placeLogo({
      frame,
      logo: { width: 400, height: 200 },
      position: 'top_left',
      scale: 0.2,
    });
    expect(topLeft.width).toBe(216);
    expect(topLeft.height).toBe(108);
    expect(topLeft.x).toBeLessThan(frame.width / 4);
    expect(topLeft.y).toBeLessThan(frame.height / 8);
    const bottomRight = placeLogo({
      frame,
      logo: { width: 400, height: 200 },
      position: 'bottom_right',
      scale: 0.2,
    });
    expect(bottomRight.x + bottomRight.width).toBeGreaterThan(frame.width * 0.85);
    expect(bottomRight.y + bottomRight.height).toBeGreaterThan(frame.height * 0.85);
  });

  it('keeps the logo inside the platform safe zone in every corner', () => {
    for (const position of ['top_left', 'top_right', 'bottom_left', 'bottom_right'] as const) {
      const placed = placeLogo({
        frame,
        logo: { width: 300, height: 300 },
        position,
        scale: 0.5,
        platform: 'tiktok',
      });
      const zone = safeRect('tiktok', frame);
      expect(placed.x).toBeGreaterThanOrEqual(zone.x);
      expect(placed.y).toBeGreaterThanOrEqual(zone.y);
      expect(placed.x + placed.width).toBeLessThanOrEqual(zone.x + zone.w);
      expect(placed.y + placed.height).toBeLessThanOrEqual(zone.y + zone.h);
      // TikTok: never the top 10 %, the bottom 20 % or the right 12 %.
      expect(placed.y).toBeGreaterThanOrEqual(frame.height * 0.1);
      expect(placed.y + placed.height).toBeLessThanOrEqual(frame.height * 0.8);
      expect(placed.x + placed.width).toBeLessThanOrEqual(frame.width * 0.88);
    }
  });

  it('shrinks a tall logo that would not fit the zone', () => {
    const placed = placeLogo({
      frame: { width: 1920, height: 1080 },
      logo: { width: 100, height: 1000 },
      position: 'top_right',
      scale: 0.5,
    });
    expect(placed.height).toBeLessThanOrEqual(1080 * 0.9);
    expect(placed.width / placed.height).toBeCloseTo(0.1, 1);
  });
});

describe('brand kit rules', () => {
  it('lets the request override the kit style field by field', () => {
    expect(mergeKitStyle({ text_color: '#ff0000', font_size: 60 }, { font_size: 80 })).toEqual({
      text_color: '#ff0000',
      font_size: 80,
    });
    expect(mergeKitStyle(undefined, undefined)).toBeUndefined();
  });

  it('opens with the kit used last', () => {
    const kits = [
      { id: 'a', created_at: '2026-01-01', last_used_at: '2026-02-01T00:00:00Z' },
      { id: 'b', created_at: '2026-01-02', last_used_at: '2026-03-01T00:00:00Z' },
      { id: 'c', created_at: '2026-01-03', last_used_at: null },
    ];
    expect(defaultBrandKit(kits)?.id).toBe('b');
    expect(defaultBrandKit([kits[2]!])).toBeUndefined();
    // A clip never edited with a kit choice opens with the kit used last; a choice is kept,
    // "none" included, and a kit deleted since opens as none.
    expect(brandKitForClip(undefined, kits)).toBe('b');
    expect(brandKitForClip('c', kits)).toBe('c');
    expect(brandKitForClip(null, kits)).toBeNull();
    expect(brandKitForClip('gone', kits)).toBeNull();
    expect(brandKitForClip(undefined, [])).toBeNull();
  });

  it('limits kits by plan: one on free, more on paid plans', () => {
    expect(brandKitLimit('free')).toBe(1);
    expect(brandKitLimit('vip_month')).toBeGreaterThan(1);
    expect(brandKitLimit('enterprise')).toBe(-1);
  });
});
