import type { ExportAspect, Platform } from '@moments/contract';

/**
 * What each platform a clip is made for expects: its shape, how long a post may be, and the safe
 * zone, the part of the frame its own buttons, caption and progress bar leave clear. Overlays the
 * export adds (captions, hook title, logo) keep inside the safe zone; the editor draws it.
 */
export interface PlatformPreset {
  platform: Platform;
  aspect: ExportAspect;
  /** The longest post, in seconds; null for no limit. */
  maxSeconds: number | null;
  /** Margins of the frame to keep clear, as shares of its height (top, bottom) and width. */
  safeZone: { top: number; bottom: number; left: number; right: number };
}

export const PLATFORM_PRESETS: Record<Platform, PlatformPreset> = {
  // TikTok's like/comment/share column sits on the right, its caption and music line at the
  // bottom, its tabs at the top.
  tiktok: {
    platform: 'tiktok',
    aspect: '9:16',
    maxSeconds: 600,
    safeZone: { top: 0.1, bottom: 0.2, left: 0.04, right: 0.12 },
  },
  instagram_reels: {
    platform: 'instagram_reels',
    aspect: '9:16',
    maxSeconds: 180,
    safeZone: { top: 0.13, bottom: 0.24, left: 0.05, right: 0.12 },
  },
  youtube_shorts: {
    platform: 'youtube_shorts',
    aspect: '9:16',
    maxSeconds: 180,
    safeZone: { top: 0.08, bottom: 0.22, left: 0.05, right: 0.14 },
  },
  generic: {
    platform: 'generic',
    aspect: '9:16',
    maxSeconds: null,
    safeZone: { top: 0.05, bottom: 0.05, left: 0.05, right: 0.05 },
  },
};

/** The safe zone of a frame in pixels: the rectangle overlays must lie inside. */
export function safeRect(
  platform: Platform,
  frame: { width: number; height: number },
): { x: number; y: number; w: number; h: number } {
  const zone = PLATFORM_PRESETS[platform].safeZone;
  const x = Math.round(frame.width * zone.left);
  const y = Math.round(frame.height * zone.top);
  return {
    x,
    y,
    w: Math.round(frame.width * (1 - zone.right)) - x,
    h: Math.round(frame.height * (1 - zone.bottom)) - y,
  };
}

/** Whether a clip of this length is longer than the platform takes. */
export function exceedsPlatformLength(platform: Platform, durationMs: number): boolean {
  const max = PLATFORM_PRESETS[platform].maxSeconds;
  return max !== null && durationMs > max * 1000;
}
