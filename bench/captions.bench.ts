/**
 * Caption burn-in speed: a 60 s 1080x1920 clip re-encoded with word-by-word captions (the
 * exporter's default x264 preset), reported as multiples of real time.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildCaptionsAss,
  burnCaptions,
  type CaptionTemplateId,
} from '../packages/media/src/captions/index';
import { runFfmpeg } from '../packages/media/src/ffmpeg/index';

const CLIP_S = 60;
const WIDTH = 1080;
const HEIGHT = 1920;

export default async function run(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'captions-bench-'));
  try {
    const source = join(dir, 'source.mp4');
    await runFfmpeg([
      '-f',
      'lavfi',
      '-i',
      `testsrc2=s=${WIDTH}x${HEIGHT}:r=30:d=${CLIP_S}`,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=300:duration=${CLIP_S}`,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
      source,
    ]);
    // About three words a second, as in fast speech, with a pause every sentence.
    const text = 'Here is the moment everyone was waiting for and it really delivers.';
    const words = Array.from({ length: CLIP_S * 3 }, (_, index) => ({
      text: text.split(' ')[index % 12]!,
      startMs: index * 330 + Math.floor(index / 12) * 200,
      endMs: index * 330 + Math.floor(index / 12) * 200 + 290,
    })).filter((word) => word.endMs < CLIP_S * 1000);

    for (const template of ['karaoke', 'highlight_box'] as CaptionTemplateId[]) {
      const buildStart = performance.now();
      const ass = buildCaptionsAss({
        words,
        template,
        display: 'source',
        width: WIDTH,
        height: HEIGHT,
        language: 'en',
      });
      const buildMs = performance.now() - buildStart;
      const assPath = join(dir, `${template}.ass`);
      await writeFile(assPath, ass);
      const burnStart = performance.now();
      await burnCaptions(source, assPath, join(dir, `${template}.mp4`));
      const burnS = (performance.now() - burnStart) / 1000;
      console.log(
        `captions ${template}: burn 60 s 1080x1920 (x264 veryfast) in ${burnS.toFixed(1)} s = ${(CLIP_S / burnS).toFixed(2)}x real time; ASS built in ${buildMs.toFixed(0)} ms`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
