import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertValidKey,
  assertValidPrefix,
  StorageNotFoundError,
  type ByteRange,
  type Storage,
} from './storage.js';

/** Files under one folder (default DATA_DIR/files), one file per key. */
export class LocalStorage implements Storage {
  readonly driver = 'local' as const;
  readonly rootDir: string;

  constructor(rootDir: string) {
    this.rootDir = path.resolve(rootDir);
  }

  /** The file a key names; keys are validated, and the result is checked to stay under the root. */
  pathFor(key: string): string {
    assertValidKey(key);
    const file = path.join(this.rootDir, ...key.split('/'));
    if (!file.startsWith(this.rootDir + path.sep)) throw new Error(`Key escapes storage: ${key}`);
    return file;
  }

  async putFile(key: string, localPath: string, options: { move?: boolean } = {}): Promise<void> {
    const target = this.pathFor(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    if (options.move) {
      try {
        await fs.rename(localPath, target);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      }
    }
    // Copy beside the target and rename, so a reader never sees half a file.
    const partial = partialPathFor(target);
    try {
      await fs.copyFile(localPath, partial);
      await fs.rename(partial, target);
    } catch (error) {
      await fs.rm(partial, { force: true });
      throw error;
    }
    if (options.move) await fs.rm(localPath, { force: true });
  }

  async putStream(key: string, stream: Readable): Promise<void> {
    const target = this.pathFor(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    const partial = partialPathFor(target);
    try {
      await pipeline(stream, createWriteStream(partial));
      await fs.rename(partial, target);
    } catch (error) {
      await fs.rm(partial, { force: true });
      throw error;
    }
  }

  async withLocalFile<T>(
    key: string,
    fn: (localPath: string) => Promise<T>,
    options: { signal?: AbortSignal } = {},
  ): Promise<T> {
    return fn(await this.localCopy(key, '', options));
  }

  /** The stored file itself: nothing to copy on this driver. */
  async localCopy(key: string, _dir: string, options: { signal?: AbortSignal } = {}) {
    options.signal?.throwIfAborted();
    const file = this.pathFor(key);
    if (!(await this.stat(key))) throw new StorageNotFoundError(key);
    return file;
  }

  async createReadStream(key: string, range: ByteRange = {}): Promise<Readable> {
    const file = this.pathFor(key);
    const handle = await fs.open(file, 'r').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') throw new StorageNotFoundError(key);
      throw error;
    });
    // Opened before returning, so a missing file is an error here and not later on the stream.
    if (!(await handle.stat()).isFile()) {
      await handle.close();
      throw new StorageNotFoundError(key);
    }
    return handle.createReadStream({ start: range.start, end: range.end });
  }

  async stat(key: string): Promise<{ size: number } | null> {
    // Missing (or unreadable) file: stat answers "not stored".
    const info = await fs.stat(this.pathFor(key)).catch(() => null);
    return info?.isFile() ? { size: info.size } : null;
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathFor(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertValidPrefix(prefix);
    await fs.rm(this.pathFor(prefix.slice(0, -1)), { recursive: true, force: true });
  }
}

function partialPathFor(target: string): string {
  return path.join(
    path.dirname(target),
    `.${path.basename(target)}.${randomBytes(6).toString('hex')}.partial`,
  );
}
