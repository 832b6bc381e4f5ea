import type { Tier } from '@moments/contract';
import { tierOfPlan } from './index.js';

const GIB = 1024 ** 3;

/** The rolling window the upload rate is counted over. */
export const UPLOAD_RATE_WINDOW_MS = 3600_000;

export interface UploadLimits {
  /** Uploads started (plain or resumable, taken or refused for their content) per rolling hour. */
  uploadsPerHour: number;
  /** Bytes the user's kept uploads may hold together. */
  storageBytes: number;
}

/**
 * What each tier may upload: enough for honest use of the plan, and a wall for a script that
 * fills the disk (thirty 8 GiB files in seconds were all taken before these limits).
 */
export const UPLOAD_LIMITS: Record<Tier, UploadLimits> = {
  FREE: { uploadsPerHour: 20, storageBytes: 10 * GIB },
  VIP: { uploadsPerHour: 60, storageBytes: 100 * GIB },
  SVIP: { uploadsPerHour: 120, storageBytes: 500 * GIB },
  SSVIP: { uploadsPerHour: 240, storageBytes: 2048 * GIB },
};

export const uploadLimitsForPlan = (plan: string | null | undefined): UploadLimits =>
  UPLOAD_LIMITS[tierOfPlan(plan)];

/**
 * Seconds until one more upload is taken, given the start times of the user's uploads within
 * the window; 0 when one may start now.
 */
export function uploadRetryAfterSec(
  recentStarts: readonly Date[],
  now: Date,
  limits: Pick<UploadLimits, 'uploadsPerHour'>,
): number {
  const windowStart = now.getTime() - UPLOAD_RATE_WINDOW_MS;
  const inWindow = recentStarts
    .map((start) => start.getTime())
    .filter((time) => time > windowStart)
    .sort((a, b) => a - b);
  if (inWindow.length < limits.uploadsPerHour) return 0;
  // The oldest start that must leave the window before there is room for one more.
  const freeing = inWindow[inWindow.length - limits.uploadsPerHour]!;
  return Math.max(1, Math.ceil((freeing + UPLOAD_RATE_WINDOW_MS - now.getTime()) / 1000));
}

/** True when `incomingBytes` more fit beside `usedBytes` in the plan's storage. */
export const fitsStorageQuota = (
  usedBytes: number,
  incomingBytes: number,
  limits: Pick<UploadLimits, 'storageBytes'>,
): boolean => usedBytes + Math.max(0, incomingBytes) <= limits.storageBytes;
