import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { BackgroundWork } from '../../queue/background-work.js';
import type { Storage } from '../../storage/index.js';
import type { MediaRepository } from '../media/media.repository.js';
import type { MomentRow } from './moments.repository.js';

/**
 * The shared span of a moment as its own small file: anonymous viewers get these
 * bytes only, never the source upload. Cut once per span and kept next to the user's files; a
 * re-cut span (after a refresh moved it) gets a new key.
 */
export class MomentSpans {
  private readonly cutting = new Map<string, Promise<string>>();
  /** Cuts run one at a time, so anonymous visitors cannot pile up ffmpeg processes. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly media: MediaRepository,
    private readonly storage: Storage,
    private readonly workRoot: string,
    /** Cuts are tracked background work (sharing starts one nobody waits for): close stops them. */
    private readonly background: BackgroundWork,
  ) {}

  keyOf(moment: MomentRow): string {
    // In the task's folder, so deleting the task removes its shared spans too.
    return `users/${moment.userId}/tasks/${moment.taskId}/spans/${moment.id}-${moment.startMs}-${moment.endMs}.mp4`;
  }

  async cut(moment: MomentRow, mediaKey: string): Promise<string> {
    const key = this.keyOf(moment);
    if (await this.storage.stat(key)) return key;
    let pending = this.cutting.get(key);
    if (!pending) {
      pending = this.queue
        // The previous cut's failure is its caller's to see; the next cut only waits its turn.
        .catch(() => undefined)
        .then(() => this.background.run((closing) => this.cutNow(moment, mediaKey, key, closing)))
        .finally(() => this.cutting.delete(key));
      this.queue = pending;
      this.cutting.set(key, pending);
    }
    return pending;
  }

  private async cutNow(
    moment: MomentRow,
    mediaKey: string,
    key: string,
    signal: AbortSignal,
  ): Promise<string> {
    const dir = path.join(this.workRoot, `span-${randomUUID().slice(0, 8)}`);
    await fs.mkdir(dir, { recursive: true });
    try {
      const out = path.join(dir, 'span.mp4');
      await this.storage.withLocalFile(mediaKey, (source) =>
        this.media.cutSpan(source, out, moment, { timeoutMs: 10 * 60_000, signal }),
      );
      await this.storage.putFile(key, out, { move: true });
      return key;
    } finally {
      // Best effort: a folder left behind is swept with the process's work root.
      await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /** Drops the cut file when the share is revoked. */
  async forget(moment: MomentRow): Promise<void> {
    await this.storage.delete(this.keyOf(moment));
  }
}
