import path from 'node:path';

const MAX_NAME_LENGTH = 200;

/**
 * The name an uploaded file is shown under. It is never used as a path (storage keys are made of
 * ids), but it lands in titles, downloads and logs, so it loses any folder part, control and
 * bidi-override characters, and characters that are special in shells and file systems.
 */
export function safeDisplayName(originalName: string): string {
  const base = originalName.split(/[/\\]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    // C0/C1 controls, bidi overrides and isolates (they can disguise an extension), BOM
    .replace(/[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/gu, '')
    .replace(/[<>:"|?*;$()`{}]/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.-]+/, '')
    .trim();
  if (!cleaned) return 'video';
  if (cleaned.length <= MAX_NAME_LENGTH) return cleaned;
  // Shorten the stem and keep the extension: it decides whether the upload is accepted.
  const extension = path.extname(cleaned).length <= 10 ? path.extname(cleaned) : '';
  const stem = cleaned.slice(0, cleaned.length - extension.length);
  return (
    [...stem]
      .slice(0, MAX_NAME_LENGTH - extension.length)
      .join('')
      .trim() + extension
  );
}

/** An upload's video title: the file name without its extension. */
export function titleFromFileName(displayName: string): string {
  const extension = path.extname(displayName);
  return (extension ? displayName.slice(0, -extension.length) : displayName).trim() || 'video';
}

/** A byte count as people read it: 8 GB, 1.5 MB. */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}
