/**
 * Subtitles never split a hyphenated word ("ill -disposed"). The transcript stored here is
 * what Whisper itself returned for LibriVox read speech before words were joined (a row stored by an
 * older version): the editor's transcript, SRT, WebVTT and ASS (the document the burnt-in export
 * renders) all read it back with whole words.
 */
import { fasterWhisperAvailability, FasterWhisperEngine } from '@moments/ai/asr';
import { librivoxPassages, LIBRIVOX_DIR, makeTestVideo } from '@moments/media/testing';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TasksRepository } from '../src/modules/tasks/tasks.repository.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';

const asr = fasterWhisperAvailability();
const passages = await librivoxPassages();
const missing = [
  !asr.available && `the speech engine (${asr.reason})`,
  !passages && `${LIBRIVOX_DIR} (apt-get install pocketsphinx-testdata)`,
].filter(Boolean);
if (missing.length) console.warn(`written-words: skipping, missing ${missing.join(', ')}`);

const pglite = DATABASE_TARGETS.find((target) => target.name === 'pglite')!;

describe.skipIf(missing.length > 0)('hyphenated words in every caption format', () => {
  let t: TestApp;
  let workDir: string;
  let headers: Record<string, string>;
  let taskId: string;

  beforeAll(async () => {
    workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-written-words-'));
    const speech = passages!.find((p) => p.file.endsWith('-0890.wav'))!.file;
    // Whisper's own words, as rows stored before words were joined hold them: "cold" "-hearted".
    const raw = await new FasterWhisperEngine().transcribe(speech, { language: 'en' });
    const rawWords = raw.segments.flatMap((segment) => segment.words);
    expect(rawWords.some((word) => word.text.startsWith('-'))).toBe(true);
    const video = await makeTestVideo(path.join(workDir, 'read.mp4'), { audio: speech });
    t = await startTestApp(await pglite.open());
    const user = await signUp(t.app);
    headers = user.headers;
    const repo = new TasksRepository(t.services.database.db);
    const task = await repo.insert({
      userId: user.userId,
      kind: 'caption',
      urlSource: 'upload',
      video: { url: 'upload://fixture', title: 'Sense and Sensibility' },
      sourceLang: 'en',
      captionDisplay: 'source',
      status: 'DONE',
      stage: 'finishing',
      progress: 100,
      detectedLang: 'en',
      durationMs: raw.durationMs,
    });
    const mediaKey = `users/${user.userId}/tasks/${task.id}/source.mp4`;
    await t.services.storage.putFile(mediaKey, video);
    await repo.update(task.id, { mediaKey });
    await repo.saveTranscript({ taskId: task.id, ...raw, engine: 'faster-whisper:base' });
    taskId = task.id;
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    if (workDir) await fs.rm(workDir, { recursive: true, force: true });
  });

  const get = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url, headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.body;
  };

  it('shows "cold-hearted" and "ill-disposed" whole in the editor, SRT, WebVTT and ASS', async () => {
    const transcript = JSON.parse(
      await get(`/api/highlight_moment/task/transcript?id=${taskId}`),
    ) as { data: { segments: { words: { text: string; start: number; end: number }[] }[] } };
    const words = transcript.data.segments.flatMap((segment) => segment.words);
    expect(words.map((word) => word.text)).toEqual(
      expect.arrayContaining(['cold-hearted', expect.stringMatching(/^ill-disposed/)]),
    );
    for (const format of ['srt', 'vtt', 'ass']) {
      const body = await get(`/api/captions/subtitles?task_id=${taskId}&format=${format}`);
      expect(body, format).toMatch(/cold-hearted/);
      expect(body, format).toMatch(/ill-disposed/);
      expect(body, format).not.toMatch(/\s-[a-z]/);
    }
  });
});
