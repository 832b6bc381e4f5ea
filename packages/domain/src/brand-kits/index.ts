import type { CaptionStyle, LogoPosition, Platform } from '@moments/contract';
import { safeRect } from '../platforms/index.js';

export interface LogoPlacement {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The gap between the logo and the safe zone's edges, as a share of the frame's short side. */
const LOGO_MARGIN = 0.02;

const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);

/**
 * Where a brand kit's logo sits on the frame: `scale` of the frame's width wide (its own shape
 * kept), in the chosen corner of the platform's safe zone, so the platform's buttons never cover
 * it. A logo too large for the zone is shrunk to fit. The editor and the export both place it
 * with this, so the preview shows it where the file has it.
 */
export function placeLogo(input: {
  frame: { width: number; height: number };
  /** The logo file's own size in pixels. */
  logo: { width: number; height: number };
  position: LogoPosition;
  scale: number;
  platform?: Platform;
}): LogoPlacement {
  const { frame, logo } = input;
  const zone = safeRect(input.platform ?? 'generic', frame);
  const margin = Math.round(Math.min(frame.width, frame.height) * LOGO_MARGIN);
  const room = { w: zone.w - 2 * margin, h: zone.h - 2 * margin };
  const aspect = logo.height / Math.max(1, logo.width);
  let width = frame.width * input.scale;
  let height = width * aspect;
  const shrink = Math.min(1, room.w / width, room.h / height);
  width = Math.min(even(width * shrink), room.w - (room.w % 2));
  height = Math.min(even(height * shrink), room.h - (room.h % 2));
  const left = input.position.endsWith('left');
  const top = input.position.startsWith('top');
  return {
    x: left ? zone.x + margin : zone.x + zone.w - margin - width,
    y: top ? zone.y + margin : zone.y + zone.h - margin - height,
    width,
    height,
  };
}

/**
 * Caption styles layered: later layers win, field by field; a field a layer leaves out (or sets
 * undefined) keeps the earlier value. `box_color: null` is a value: "no box", over a kit's box.
 */
export function mergeCaptionStyles(
  ...layers: readonly (CaptionStyle | null | undefined)[]
): CaptionStyle {
  const merged: Record<string, unknown> = {};
  for (const layer of layers) {
    if (!layer) continue;
    for (const [key, value] of Object.entries(layer)) {
      if (value !== undefined) merged[key] = value;
    }
  }
  return merged as CaptionStyle;
}

/**
 * The caption style an export uses: the kit's style first, then each field the request sets (a
 * change in the editor wins over the kit it started from); undefined when neither has one.
 */
export function mergeKitStyle(
  kitStyle: CaptionStyle | undefined,
  requested: CaptionStyle | undefined,
): CaptionStyle | undefined {
  if (!kitStyle && !requested) return undefined;
  return mergeCaptionStyles(kitStyle, requested);
}

/** The kit the studio opens a new clip with: the one used last, else the newest. */
export function defaultBrandKit<K extends { last_used_at: string | null; created_at: string }>(
  kits: readonly K[],
): K | undefined {
  const used = kits
    .filter((kit) => kit.last_used_at !== null)
    .sort((a, b) => b.last_used_at!.localeCompare(a.last_used_at!));
  return used[0];
}

/**
 * The kit a clip opens with: the one its settings name (none when that kit is gone, or when they
 * say none), else, for a clip with no kit choice yet, the one used last.
 */
export function brandKitForClip<
  K extends { id: string; last_used_at: string | null; created_at: string },
>(chosen: string | null | undefined, kits: readonly K[]): string | null {
  if (chosen !== undefined) return kits.some((kit) => kit.id === chosen) ? chosen : null;
  return defaultBrandKit(kits)?.id ?? null;
}
