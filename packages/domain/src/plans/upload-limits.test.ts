import { describe, expect, it } from 'vitest';
import {
  fitsStorageQuota,
  UPLOAD_LIMITS,
  uploadLimitsForPlan,
  uploadRetryAfterSec,
} from './index.js';

describe('upload limits by plan', () => {
  it('gives higher tiers more uploads and more room', () => {
    expect(uploadLimitsForPlan('free')).toBe(UPLOAD_LIMITS.FREE);
    expect(uploadLimitsForPlan('svip_year')).toBe(UPLOAD_LIMITS.SVIP);
    expect(UPLOAD_LIMITS.VIP.storageBytes).toBeGreaterThan(UPLOAD_LIMITS.FREE.storageBytes);
    expect(UPLOAD_LIMITS.SSVIP.uploadsPerHour).toBeGreaterThan(UPLOAD_LIMITS.SVIP.uploadsPerHour);
  });

  it('waits until the oldest start in the hour leaves it, and counts nothing older', () => {
    const now = new Date('2026-12-01T12:00:00Z');
    const ago = (sec: number) => new Date(now.getTime() - sec * 1000);
    const limits = { uploadsPerHour: 3 };
    expect(uploadRetryAfterSec([ago(10), ago(20)], now, limits)).toBe(0);
    // Three in the hour: the one from 50 minutes ago frees a slot in 10 minutes.
    expect(uploadRetryAfterSec([ago(10), ago(3000), ago(20)], now, limits)).toBe(600);
    // Starts older than the hour are forgotten.
    expect(uploadRetryAfterSec([ago(10), ago(3700), ago(20)], now, limits)).toBe(0);
  });

  it('takes a file that fits exactly and refuses one byte more', () => {
    expect(fitsStorageQuota(90, 10, { storageBytes: 100 })).toBe(true);
    expect(fitsStorageQuota(90, 11, { storageBytes: 100 })).toBe(false);
  });
});
