// With no language given, each transcription chunk's worker detects its own language instead of
// one detection pass before any chunk starts (it held every chunk back by about a second). The
// talk keeps one language, its first speech's, as before: a later chunk heard in another language
// is heard again in the first one. Real speech: the MIT licence read in English, then in German.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Task } from '@moments/contract';
import { fasterWhisperAvailability } from '@moments/ai/asr';
import { makeTestVideo } from '@moments/media/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_MEDIA_DIR, hasSharedMedia } from '../../../packages/ai/test/support/recordings.js';
import { openPglite } from './support/databases.js';
import {
  signUp,
  startTestApp,
  uploadAndStartTask,
  waitForTask,
  type TestApp,
} from './support/app.js';

const run = promisify(execFile);
const engine = fasterWhisperAvailability();
const skipReason = !engine.available
  ? engine.reason
  : !hasSharedMedia
    ? 'needs ../shared/media (multilingual-en-de.mp3)'
    : undefined;
if (skipReason) console.warn(`Skipping the chunk languages test: ${skipReason}`);

describe.skipIf(!!skipReason)('the language of a talk heard in chunks', () => {
  let dir: string;
  let video: string;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-chunk-languages-'));
    // English until about 29 s, German from about 31 s to the end (60 s); a chunk starting after 28 s is German.
    const wav = path.join(dir, 'bilingual.wav');
    await run('ffmpeg', [
      ...['-v', 'error', '-y', '-i', path.join(SHARED_MEDIA_DIR, 'multilingual-en-de.mp3')],
      ...['-ac', '1', '-ar', '16000', wav],
    ]);
    video = await makeTestVideo(path.join(dir, 'bilingual.mp4'), { audio: wav });
  }, 120_000);
  afterAll(async () => {
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it.each([
    // Two chunks for two Whisper processes: each chunk detects its own language as it starts.
    { plan: 'one chunk per process', chunkSeconds: '30', firstChunkTold: null },
    // More chunks than processes: one detection of the first speech up front, told to all.
    { plan: 'more chunks than processes', chunkSeconds: '12', firstChunkTold: 'en' },
  ])(
    'keeps the first speech’s language with $plan: the German reading is heard in English',
    async ({ chunkSeconds, firstChunkTold }) => {
      const t: TestApp = await startTestApp(
        await openPglite(),
        { ASR_CHUNK_SECONDS: chunkSeconds, ASR_PROCESSES: '2', ASR_THREADS: '1' },
        { workers: true },
      );
      try {
        const user = await signUp(t.app, 'bilingual');
        const taskId = await uploadAndStartTask(t.app, user.headers, {
          name: 'Licence.mp4',
          content: await fs.readFile(video),
        });
        const task = Task.parse(await waitForTask(t.app, user.headers, taskId));
        expect(task.status, task.error_reason ?? '').toBe('DONE');

        const pglite = t.services.database.pglite!;
        const transcript = await pglite.query<{ language: string }>(
          'SELECT language FROM transcripts WHERE task_id = $1',
          [taskId],
        );
        expect(transcript.rows[0]!.language).toBe('en');
        const chunks = await pglite.query<{
          idx: number;
          start_ms: number;
          language: string | null;
        }>('SELECT idx, start_ms, language FROM asr_chunks WHERE task_id = $1 ORDER BY idx', [
          taskId,
        ]);
        expect(chunks.rows.length, 'the talk is heard in chunks').toBeGreaterThanOrEqual(2);
        expect(chunks.rows[0]!.language).toBe(firstChunkTold);
        // Every chunk of the German reading was told English (with one chunk per process, when
        // it was heard again after hearing itself as German).
        const german = chunks.rows.filter((row) => row.start_ms >= 28_000);
        expect(german.length, 'a chunk starts in the German reading').toBeGreaterThan(0);
        for (const row of german) expect(row.language, `chunk ${row.idx}`).toBe('en');
      } finally {
        await t.close();
      }
    },
    300_000,
  );
});
