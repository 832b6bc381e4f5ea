/** Display formatters for video facts (spec §9). */

/** spec §9: view counts abbreviate with K, M, B at 1e3, 1e6, 1e9. */
export function formatViewCount(views: number): string {
  const units: Array<[number, string]> = [
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'K'],
  ];
  for (const [size, suffix] of units) {
    if (views >= size) {
      const value = Math.floor((views / size) * 10) / 10;
      return `${Number.isInteger(value) ? value : value.toFixed(1)}${suffix}`;
    }
  }
  return String(views);
}

/** Seconds to `m:ss` or `h:mm:ss`. */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Seconds since the epoch to a short local date. */
export function formatPublishedDate(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toLocaleDateString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
  });
}
