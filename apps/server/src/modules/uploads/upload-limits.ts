import { ERROR_CODES } from '@moments/contract';
import {
  fitsStorageQuota,
  UPLOAD_RATE_WINDOW_MS,
  uploadLimitsForPlan,
  uploadRetryAfterSec,
} from '@moments/domain/plans';
import type { UsersRepository } from '../auth/users.repository.js';
import type { UploadsRepository } from './uploads.repository.js';
import { AppError } from '../../http/errors.js';
import { formatBytes } from './display-name.js';

/**
 * The per-plan upload rate and storage quota (packages/domain UPLOAD_LIMITS), checked before any
 * byte is stored: at the start of an upload from the length it declares, and again once the
 * real bytes are in, before they go into storage.
 */
export interface UploadLimitsGuardOptions {
  uploads: UploadsRepository;
  users: UsersRepository;
  now?: () => Date;
}

export class UploadLimitsGuard {
  private readonly uploads: UploadsRepository;
  private readonly users: UsersRepository;
  private readonly now: () => Date;

  constructor({ uploads, users, now = () => new Date() }: UploadLimitsGuardOptions) {
    this.uploads = uploads;
    this.users = users;
    this.now = now;
  }

  /**
   * An upload of `declaredBytes` (Content-Length or Upload-Length) may start: refused with 429
   * UPLOAD_RATE_LIMITED (Retry-After) or 413 STORAGE_QUOTA_EXCEEDED; taken, it counts toward the rate.
   */
  async assertCanStart(userId: string, declaredBytes: number): Promise<void> {
    const limits = await this.limitsOf(userId);
    const now = this.now();
    const windowStart = new Date(now.getTime() - UPLOAD_RATE_WINDOW_MS);
    const recent = await this.uploads.startsSince(userId, windowStart);
    const retryAfter = uploadRetryAfterSec(recent, now, limits);
    if (retryAfter > 0) {
      throw new AppError(
        ERROR_CODES.UPLOAD_RATE_LIMITED,
        429,
        `Your plan takes ${limits.uploadsPerHour} uploads an hour. The next one can start in ${waitWords(retryAfter)}.`,
        undefined,
        { 'retry-after': String(retryAfter) },
      );
    }
    await this.assertFits(userId, declaredBytes, limits);
    // Starts older than the window no longer count: this user's are dropped as a new one comes.
    await this.uploads.recordStart(userId, now, windowStart);
  }

  /** The received bytes fit beside the user's kept uploads (413 STORAGE_QUOTA_EXCEEDED if not). */
  async assertFits(
    userId: string,
    bytes: number,
    limits?: Awaited<ReturnType<UploadLimitsGuard['limitsOf']>>,
  ): Promise<void> {
    const { storageBytes } = limits ?? (await this.limitsOf(userId));
    const used = await this.usedBytes(userId);
    if (!fitsStorageQuota(used, bytes, { storageBytes })) {
      throw new AppError(
        ERROR_CODES.STORAGE_QUOTA_EXCEEDED,
        413,
        `This upload does not fit in your plan's ${formatBytes(storageBytes)} of storage (${formatBytes(used)} used). Delete uploads you no longer need, or change plan.`,
      );
    }
  }

  /** What the user's kept uploads hold, in bytes. */
  usedBytes(userId: string): Promise<number> {
    return this.uploads.usedBytes(userId);
  }

  private async limitsOf(userId: string) {
    const user = await this.users.findById(userId);
    return uploadLimitsForPlan(user?.currentPlan);
  }
}

function waitWords(seconds: number): string {
  if (seconds < 90) return `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}
