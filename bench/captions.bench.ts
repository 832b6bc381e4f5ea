/**
 * Caption burn-in speed: a 60 s 1080x1920 clip re-encoded with word-by-word captions (the
 * exporter's default x264 preset), reported as multiples of real time. Then a whole-video
 * animated-caption export of a 10-minute video through the exporter's own steps
 * (loudness measure, captions document, one-pass render), as wall time / video duration.
 * `CAPTIONS_BENCH_WHOLE=0` skips the 10-minute part; `CAPTIONS_BENCH_WHOLE_S` changes its length;
 * `CAPTIONS_BENCH_WHOLE_1080=1` adds a 1080p render.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildCaptionsAss,
  burnCaptions,
  type CaptionTemplateId,
} from '../packages/media/src/captions/index';
import { runFfmpeg, runFfprobe } from '../packages/media/src/ffmpeg/index';
import { measureLoudness, renderClip } from '../apps/server/src/modules/media/clip-render';
import { exportFrameSize } from '../apps/server/src/modules/captions/clip-captions';

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
    if (process.env.CAPTIONS_BENCH_WHOLE !== '0') await wholeVideoExport(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Words at a fast speaking rate (about 2.8 a second) with a pause after each sentence. */
function speech(durationS: number) {
  const text = 'Here is the moment everyone was waiting for and it really delivers.'.split(' ');
  return Array.from({ length: Math.floor(durationS * 3) }, (_, index) => ({
    text: text[index % text.length]!,
    startMs: index * 330 + Math.floor(index / 12) * 200,
    endMs: index * 330 + Math.floor(index / 12) * 200 + 290,
  })).filter((word) => word.endMs < durationS * 1000);
}

async function wholeVideoExport(dir: string): Promise<void> {
  const durationS = Number(process.env.CAPTIONS_BENCH_WHOLE_S ?? 600);
  const source = join(dir, 'whole.mp4');
  await runFfmpeg([
    '-f',
    'lavfi',
    '-i',
    `testsrc2=s=1280x720:r=30:d=${durationS}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=220:duration=${durationS}`,
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
  const words = speech(durationS);
  const endMs = durationS * 1000;
  // 720p by default (a 10-minute 1080p render takes twice as long); CAPTIONS_BENCH_WHOLE_1080=1 adds it.
  const qualities = process.env.CAPTIONS_BENCH_WHOLE_1080 === '1' ? ['720p', '1080p'] : ['720p'];
  for (const quality of qualities as ('720p' | '1080p')[]) {
    const frame = exportFrameSize('original', quality, { width: 1280, height: 720 });
    const output = join(dir, `whole-${quality}.mp4`);
    const started = performance.now();
    const loudness = await measureLoudness(source, 0, endMs);
    const assPath = join(dir, `whole-${quality}.ass`);
    await writeFile(
      assPath,
      buildCaptionsAss({ words, template: 'karaoke', display: 'source', ...frame, language: 'en' }),
    );
    await renderClip({
      sourceFile: source,
      outputFile: output,
      assFile: assPath,
      startMs: 0,
      endMs,
      framing: { layout: 'scale', output: frame },
      hasAudio: true,
      loudness,
    });
    const wallS = (performance.now() - started) / 1000;
    const outS = Number(
      await runFfprobe([
        '-v',
        'error',
        '-show_entries',
        'format=duration',
        '-of',
        'csv=p=0',
        output,
      ]),
    );
    console.log(
      `captions whole-video export: ${durationS} s video, original shape ${frame.width}x${frame.height} (${quality}), ` +
        `${words.length} caption words: wall ${wallS.toFixed(1)} s = ${(wallS / durationS).toFixed(3)} x duration ` +
        `(${(durationS / wallS).toFixed(2)}x real time); output ${outS.toFixed(2)} s`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
