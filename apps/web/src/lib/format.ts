/**
 * Display formatters the shell needs beyond @moments/domain/format (which holds the shared
 * display rules: view counts, durations, relative times, credits).
 */

/** Seconds since the epoch to a short local date (the top bar hover card's published date). */
export function formatPublishedDate(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toLocaleDateString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
  });
}
