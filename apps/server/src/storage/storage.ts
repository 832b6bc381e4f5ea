import type { Readable } from 'node:stream';

/** Inclusive byte range, like `fs.createReadStream`'s `start`/`end`. */
export interface ByteRange {
  start?: number;
  end?: number;
}

/**
 * Where user files live (uploads, thumbnails, exports): a local folder on one machine, an
 * S3-compatible bucket at scale (design.md "files"). Keys are `/`-separated, checked by
 * `assertValidKey`, so nothing a user names can reach outside the storage root.
 */
export interface Storage {
  readonly driver: 'local' | 's3';
  /** Stores a local file under `key`. `move: true` lets the driver consume it (a rename when it can). */
  putFile(key: string, localPath: string, options?: { move?: boolean }): Promise<void>;
  putStream(key: string, stream: Readable, contentType?: string): Promise<void>;
  /**
   * Runs `fn` with a local path to the file (ffmpeg needs one): the file itself for the local
   * driver, a temporary download removed afterwards for S3. An abort stops the download.
   */
  withLocalFile<T>(
    key: string,
    fn: (localPath: string) => Promise<T>,
    options?: { signal?: AbortSignal },
  ): Promise<T>;
  /**
   * A local path to the file that stays valid while `dir` (a run's work folder) exists: the file
   * itself for the local driver, one download into `dir` for S3, however often a run asks
   * (a task used to download its source once per stage). An abort stops the
   * download and leaves no partial file.
   */
  localCopy(key: string, dir: string, options?: { signal?: AbortSignal }): Promise<string>;
  /** Throws `StorageNotFoundError` when the key does not exist. */
  createReadStream(key: string, range?: ByteRange): Promise<Readable>;
  /** Size in bytes, or null when there is no such file. */
  stat(key: string): Promise<{ size: number } | null>;
  /** Removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every key under a folder-like prefix ending in `/`, e.g. `users/<id>/`. */
  deletePrefix(prefix: string): Promise<void>;
}

export class StorageNotFoundError extends Error {
  override name = 'StorageNotFoundError';
  constructor(readonly key: string) {
    super(`No stored file at ${key}`);
  }
}

class InvalidStorageKeyError extends Error {
  override name = 'InvalidStorageKeyError';
}

const KEY_CHARS = /^[A-Za-z0-9/_.-]+$/;

/**
 * Keys are relative, `/`-separated paths of safe characters with no `.`/`..` or empty segments,
 * so a key can never name a path outside the root on any driver or file system.
 */
export function assertValidKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > 1024) {
    throw new InvalidStorageKeyError('A storage key must be 1 to 1024 characters long');
  }
  if (!KEY_CHARS.test(key)) {
    throw new InvalidStorageKeyError(
      `Storage key has characters outside [A-Za-z0-9/_.-]: ${JSON.stringify(key)}`,
    );
  }
  const segments = key.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    throw new InvalidStorageKeyError(`Storage key has an empty, "." or ".." segment: ${key}`);
  }
}

/** A prefix is a valid key followed by `/`: deleting `users/ab` must not touch `users/abc/`. */
export function assertValidPrefix(prefix: string): void {
  if (!prefix.endsWith('/')) {
    throw new InvalidStorageKeyError(`A storage prefix must end with "/": ${prefix}`);
  }
  assertValidKey(prefix.slice(0, -1));
}
