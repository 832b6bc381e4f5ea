import { CREDIT_DISPLAY_DIVISOR } from '@moments/contract';

/** Credits are displayed as the amount divided by 10, up to 1 decimal. */
export function formatCredits(amount: number): string {
  const value = Math.round((amount / CREDIT_DISPLAY_DIVISOR) * 10) / 10;
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

export type CountScale = 'thousand' | 'million' | 'billion';
/** View counts abbreviate at 1e3, 1e6, 1e9: the shortened number and its scale (K, M, B). */
export function viewCountParts(count: number): { value: string; scale: CountScale | null } {
  const units: Array<[number, CountScale]> = [
    [1e9, 'billion'],
    [1e6, 'million'],
    [1e3, 'thousand'],
  ];
  for (const [size, scale] of units) {
    if (Math.abs(count) >= size) {
      const value = Math.floor((count / size) * 10) / 10;
      return { value: Number.isInteger(value) ? String(value) : value.toFixed(1), scale };
    }
  }
  return { value: String(count), scale: null };
}

/** The English suffixes of `viewCountParts`. */
export const COUNT_SUFFIXES_EN: Record<CountScale, string> = {
  thousand: 'K',
  million: 'M',
  billion: 'B',
};

/** A view count in English, such as 1.2K. */
export function formatViewCount(count: number): string {
  const { value, scale } = viewCountParts(count);
  return scale ? `${value}${COUNT_SUFFIXES_EN[scale]}` : value;
}

export type TimeUnit = 'now' | 'minute' | 'hour' | 'day' | 'month' | 'year';
/** Relative times: just now, minutes, hours, days, months (30 days), years. */
export function relativeTime(
  thenMs: number,
  nowMs: number = Date.now(),
): { unit: TimeUnit; count: number } {
  const seconds = Math.max(0, Math.floor((nowMs - thenMs) / 1000));
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  const months = Math.floor(days / 30);
  const years = Math.floor(days / 365);
  if (minutes < 1) return { unit: 'now', count: 0 };
  if (hours < 1) return { unit: 'minute', count: minutes };
  if (days < 1) return { unit: 'hour', count: hours };
  if (months < 1) return { unit: 'day', count: days };
  if (years < 1) return { unit: 'month', count: months };
  return { unit: 'year', count: years };
}

/** A relative time in English ("3 days ago"); the web words `relativeTime` through its catalogue. */
export function formatRelativeTime(thenMs: number, nowMs: number = Date.now()): string {
  const { unit, count } = relativeTime(thenMs, nowMs);
  if (unit === 'now') return 'just now';
  return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
}

export type WaitUnit = 'second' | 'minute' | 'hour';
/**
 * A wait (a Retry-After) as a person reads it, never shorter than the wait: seconds under a
 * minute, then whole minutes rounded up, and from an hour on hours and minutes.
 */
export function waitParts(seconds: number): { unit: WaitUnit; count: number }[] {
  const total = Math.max(1, Math.ceil(seconds));
  if (total < 60) return [{ unit: 'second', count: total }];
  const minutes = Math.ceil(total / 60);
  const parts: { unit: WaitUnit; count: number }[] = [];
  if (minutes >= 60) parts.push({ unit: 'hour', count: Math.floor(minutes / 60) });
  if (minutes % 60) parts.push({ unit: 'minute', count: minutes % 60 });
  return parts;
}

/** A wait in English ("1 hour and 5 minutes"); the web words `waitParts` through its catalogue. */
export function formatWait(seconds: number): string {
  return waitParts(seconds)
    .map(({ unit, count }) => `${count} ${unit}${count === 1 ? '' : 's'}`)
    .join(' and ');
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
