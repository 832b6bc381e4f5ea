import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { runFfmpeg } from '@moments/media/ffmpeg';
import type { Storage } from '../../storage/index.js';
import type { MomentRow } from './moments.repository.js';

/**
 * The shared span of a moment as its own small file (issue 14 #18): anonymous viewers get these
 * bytes only, never the source upload. Cut once per span and kept next to the user's files; a
 * re-cut span (after a refresh moved it) gets a new key.
 */
export class MomentSpans {
  private readonly cutting = new Map<string, Promise<string>>();
  /** Cuts run one at a time, so anonymous visitors cannot pile up ffmpeg processes. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly storage: Storage,
    private readonly workRoot: string,
  ) {}

  keyOf(moment: MomentRow): string {
    return `users/${moment.userId}/shared-spans/${moment.id}-${moment.startMs}-${moment.endMs}.mp4`;
  }

  async cut(moment: MomentRow, mediaKey: string): Promise<string> {
    const key = this.keyOf(moment);
    if (await this.storage.stat(key)) return key;
    let pending = this.cutting.get(key);
    if (!pending) {
      pending = this.queue
        .catch(() => undefined)
        .then(() => this.cutNow(moment, mediaKey, key))
        .finally(() => this.cutting.delete(key));
      this.queue = pending;
      this.cutting.set(key, pending);
    }
    return pending;
  }

  private async cutNow(moment: MomentRow, mediaKey: string, key: string): Promise<string> {
    const dir = path.join(this.workRoot, `span-${randomUUID().slice(0, 8)}`);
    await fs.mkdir(dir, { recursive: true });
    try {
      const out = path.join(dir, 'span.mp4');
      await this.storage.withLocalFile(mediaKey, (source) =>
        runFfmpeg(
          [
            '-ss',
            (moment.startMs / 1000).toFixed(3),
            '-i',
            source,
            '-t',
            ((moment.endMs - moment.startMs) / 1000).toFixed(3),
            '-map',
            '0:v:0?',
            '-map',
            '0:a:0?',
            '-c:v',
            'libx264',
            '-preset',
            'ultrafast',
            '-crf',
            '23',
            '-pix_fmt',
            'yuv420p',
            '-c:a',
            'aac',
            '-b:a',
            '128k',
            '-movflags',
            '+faststart',
            out,
          ],
          { timeoutMs: 10 * 60_000 },
        ),
      );
      await this.storage.putFile(key, out, { move: true });
      return key;
    } finally {
      await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /** Drops the cut file when the share is revoked. */
  async forget(moment: MomentRow): Promise<void> {
    await this.storage.delete(this.keyOf(moment));
  }
}
