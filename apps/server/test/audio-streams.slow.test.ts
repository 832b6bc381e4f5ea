/**
 * A video whose speech is not on its first audio stream (a silent or music track first, the
 * voice second) is transcribed from the stream that holds the speech. The file is made at test
 * time: a silent stream 0, and espeak-ng's speech as stream 1.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transcript } from '@moments/contract';
import { fasterWhisperAvailability } from '@moments/ai/asr';
import { wordErrorRate } from '@moments/ai/wer';
import { extractAudioForAsr, probeMedia } from '@moments/media/probe';
import { makeTestVideo, synthesizeSpeech } from '@moments/media/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolsMediaRepository } from '../src/modules/media/tools-media.repository.js';
import { DATABASE_TARGETS } from './support/databases.js';
import {
  signUp,
  startTestApp,
  uploadAndStartTask,
  waitForTask,
  type TestApp,
} from './support/app.js';

const SPEECH =
  'The lighthouse keeper counted seven ships before the storm arrived, and then he lit the lamp.';
const asr = fasterWhisperAvailability();
const skipReason = asr.available ? null : `the speech engine (${asr.reason ?? 'scripts/setup.sh'})`;
if (skipReason) console.warn(`Skipping the audio stream tests: missing ${skipReason}`);

describe.skipIf(skipReason !== null)('a video with its speech on the second audio stream', () => {
  let t: TestApp;
  let dir: string;
  let video: Buffer;
  let videoFile: string;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-audio-streams-'));
    const speech = await synthesizeSpeech(SPEECH, path.join(dir, 'lighthouse.wav'));
    videoFile = await makeTestVideo(path.join(dir, 'two-tracks.mp4'), {
      audio: speech,
      silentFirstAudio: true,
      width: 160,
      height: 120,
    });
    video = await fs.readFile(videoFile);
    const pglite = DATABASE_TARGETS.find((target) => target.name === 'pglite')!;
    t = await startTestApp(await pglite.open(), {}, { workers: true });
  });
  afterAll(async () => {
    await t?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it("transcribes the stream with the speech: the task's transcript has its words", async () => {
    const user = await signUp(t.app, 'two-tracks');
    const taskId = await uploadAndStartTask(
      t.app,
      user.headers,
      { name: 'two-tracks.mp4', content: video },
      'url_source=upload&source_lang=en',
    );
    const task = await waitForTask(t.app, user.headers, taskId);
    expect(task.error_reason).toBeNull();
    expect(task.status).toBe('DONE');
    const transcript = Transcript.parse(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/highlight_moment/task/transcript?id=${taskId}`,
          headers: user.headers,
        })
      ).json().data,
    );
    const text = transcript.segments.map((segment) => segment.text).join(' ');
    expect(text).toMatch(/seven ships/i);
    expect(text).toMatch(/storm/i);
    expect(wordErrorRate(SPEECH, text)).toBeLessThanOrEqual(0.3);
  }, 240_000);

  it('exports and shares the same stream: a clip keeps the speech, not the silent track', async () => {
    const media = new ToolsMediaRepository();
    const span = { startMs: 0, endMs: 3_000 };
    // The first of loudnorm's passes: silence measures nothing to normalise.
    expect(await media.measureLoudness(videoFile, span)).toBeDefined();
    const cut = path.join(dir, 'shared-cut.mp4');
    await media.cutSpan(videoFile, cut, span);
    const info = await probeMedia(cut);
    expect(info.hasAudio).toBe(true);
    const wav = await extractAudioForAsr(cut, path.join(dir, 'shared-cut.wav'));
    const pcm = (await fs.readFile(wav)).subarray(44);
    let peak = 0;
    for (let offset = 0; offset + 1 < pcm.length; offset += 2) {
      peak = Math.max(peak, Math.abs(pcm.readInt16LE(offset)));
    }
    expect(peak).toBeGreaterThan(3000);
  });
});
