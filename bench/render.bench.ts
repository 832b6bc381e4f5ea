/**
 * Export speed: a 60 s clip rendered to 1080x1920 with animated captions AND reframing in one
 * ffmpeg pass (the captions and reframe benches measure each alone), through the exporter's own
 * functions. Prints face analysis in frames per second and each step in times real time.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTranslator } from '../packages/ai/src/translate/index';
import { runFfmpeg } from '../packages/media/src/ffmpeg/index';
import {
  buildClipCaptions,
  type ResolvedClipOptions,
  type StoredTranscript,
} from '../apps/server/src/modules/captions/clip-captions';
import {
  measureLoudness,
  planClipFraming,
  renderClip,
} from '../apps/server/src/modules/media/clip-render';

const PHOTO = '/usr/share/doc/opencv-doc/examples/data/messi5.jpg';
const DURATION_SEC = 60;
const SOURCE = { width: 1920, height: 1080 };

/** Three words every 1.2 s for the whole clip, like brisk speech. */
function syntheticTranscript(): StoredTranscript {
  const vocabulary = 'the quick brown fox jumps over the lazy dog while 42 birds sing'.split(' ');
  const segments: StoredTranscript['segments'] = [];
  for (let start = 0; start + 1200 <= DURATION_SEC * 1000; start += 1200) {
    const words = [0, 1, 2].map((i) => ({
      text: vocabulary[(start / 400 + i) % vocabulary.length]!,
      startMs: start + i * 400,
      endMs: start + i * 400 + 350,
    }));
    segments.push({
      startMs: start,
      endMs: start + 1150,
      text: words.map((w) => w.text).join(' '),
      words,
    });
  }
  return { language: 'en', segments };
}

export default async function run(): Promise<void> {
  if (!existsSync(PHOTO)) {
    console.log(`render bench skipped: ${PHOTO} is missing (apt-get install opencv-doc)`);
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'render-bench-'));
  try {
    // A 1080p source with a face that wanders left and right, so the crop really pans.
    const source = join(dir, 'source.mp4');
    await runFfmpeg([
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=${SOURCE.width}x${SOURCE.height}:rate=30:duration=${DURATION_SEC}`,
      '-loop',
      '1',
      '-i',
      PHOTO,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=220:sample_rate=48000:duration=${DURATION_SEC}`,
      '-filter_complex',
      "[1:v]crop=130:150:180:45,scale=390:450[h];[0:v][h]overlay=x='760+600*sin(t/4)':y=300:shortest=1,format=yuv420p[v]",
      '-map',
      '[v]',
      '-map',
      '2:a',
      '-t',
      String(DURATION_SEC),
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-c:a',
      'aac',
      source,
    ]);

    const options: ResolvedClipOptions = {
      aspect: '9:16',
      quality: '1080p',
      template: 'karaoke',
      captionDisplay: 'source',
      sourceLang: 'en',
      targetLang: null,
      startMs: 0,
      endMs: DURATION_SEC * 1000,
      transcriptText: null,
      layout: 'auto',
    };
    const captions = await buildClipCaptions(
      syntheticTranscript(),
      options,
      SOURCE,
      createTranslator({}),
    );
    const assFile = join(dir, 'captions.ass');
    await writeFile(assFile, captions.ass, 'utf8');

    const analysisStart = performance.now();
    const framing = await planClipFraming(source, {
      ...options,
      source: SOURCE,
      output: { width: captions.width, height: captions.height },
    });
    const analysisSec = (performance.now() - analysisStart) / 1000;
    const frames = framing.analysis?.frames.length ?? 0;
    console.log(
      `render: face analysis of ${frames} sampled frames (1080p decode included): ` +
        `${(frames / analysisSec).toFixed(1)} frames/s, ${(DURATION_SEC / analysisSec).toFixed(1)}x real time, ` +
        `layout ${framing.layout}`,
    );

    const loudnessStart = performance.now();
    const loudness = await measureLoudness(source, options.startMs, options.endMs);
    const loudnessSec = (performance.now() - loudnessStart) / 1000;

    const renderStart = performance.now();
    await renderClip({
      sourceFile: source,
      outputFile: join(dir, 'clip.mp4'),
      assFile,
      startMs: options.startMs,
      endMs: options.endMs,
      framing,
      hasAudio: true,
      loudness,
    });
    const renderSec = (performance.now() - renderStart) / 1000;
    console.log(
      `render: ${DURATION_SEC} s to ${captions.width}x${captions.height} with karaoke captions and ` +
        `${framing.layout} reframing in one pass (x264 veryfast, loudnorm): ${renderSec.toFixed(1)} s, ` +
        `${(DURATION_SEC / renderSec).toFixed(2)}x real time`,
    );
    const totalSec = analysisSec + loudnessSec + renderSec;
    console.log(
      `render: whole export (analysis + loudness measure ${loudnessSec.toFixed(1)} s + render): ` +
        `${totalSec.toFixed(1)} s, ${(DURATION_SEC / totalSec).toFixed(2)}x real time`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
