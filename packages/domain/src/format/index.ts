import { CREDIT_DISPLAY_DIVISOR } from '@moments/contract';

/** spec §9: credits are displayed as the amount divided by 10, up to 1 decimal. */
export function formatCredits(amount: number): string {
  const value = Math.round((amount / CREDIT_DISPLAY_DIVISOR) * 10) / 10;
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** spec §9: view counts abbreviate with K, M, B at 1e3, 1e6, 1e9. */
export function formatViewCount(count: number): string {
  const units: Array<[number, string]> = [
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'K'],
  ];
  for (const [size, suffix] of units) {
    if (Math.abs(count) >= size) {
      const value = Math.floor((count / size) * 10) / 10;
      return `${Number.isInteger(value) ? value : value.toFixed(1)}${suffix}`;
    }
  }
  return String(count);
}

/** spec §9: relative times: just now, minutes, hours, days, months (30 days), years. */
export function formatRelativeTime(thenMs: number, nowMs: number = Date.now()): string {
  const seconds = Math.max(0, Math.floor((nowMs - thenMs) / 1000));
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  const months = Math.floor(days / 30);
  const years = Math.floor(days / 365);
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`;
  if (minutes < 1) return 'just now';
  if (hours < 1) return plural(minutes, 'minute');
  if (days < 1) return plural(hours, 'hour');
  if (months < 1) return plural(days, 'day');
  if (years < 1) return plural(months, 'month');
  return plural(years, 'year');
}

/** Durations as m:ss or h:mm:ss, for video cards and moment ranges. */
export function formatDuration(totalMs: number): string {
  const total = Math.max(0, Math.round(totalMs / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
