/**
 * Reframing speed: face analysis in sampled frames per second (640x360 frames), and the render
 * speed of a 60 s reframed 1080x1920 (9:16 1080p) output, in times real time.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFfmpeg } from '../packages/media/src/ffmpeg/index';
import { analyzeSubjects, planReframe, reframeVideo } from '../packages/media/src/reframe/index';

const PHOTO = '/usr/share/doc/opencv-doc/examples/data/messi5.jpg';
const DURATION_SEC = 60;
const SAMPLE_FPS = 4;

export default async function run(): Promise<void> {
  if (!existsSync(PHOTO)) {
    console.log(`reframe bench skipped: ${PHOTO} is missing (apt-get install opencv-doc)`);
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'reframe-bench-'));
  try {
    // A 1080p source with a face that wanders left and right, so the crop really pans.
    const source = join(dir, 'source.mp4');
    await runFfmpeg([
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=1920x1080:rate=30:duration=${DURATION_SEC}`,
      '-loop',
      '1',
      '-i',
      PHOTO,
      '-filter_complex',
      "[1:v]crop=130:150:180:45,scale=390:450[h];[0:v][h]overlay=x='760+600*sin(t/4)':y=300:shortest=1,format=yuv420p",
      '-t',
      String(DURATION_SEC),
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      source,
    ]);

    const analysisStart = performance.now();
    const analysis = await analyzeSubjects(source, { sampleFps: SAMPLE_FPS });
    const analysisSec = (performance.now() - analysisStart) / 1000;
    const withFace = analysis.frames.filter((frame) => frame.faces.length > 0).length;
    console.log(
      `reframe: analysis of ${analysis.frames.length} frames at ` +
        `${analysis.frameSize.width}x${analysis.frameSize.height} (${SAMPLE_FPS} fps sampling, ` +
        `1080p source decode included): ${(analysis.frames.length / analysisSec).toFixed(1)} frames/s, ` +
        `${(DURATION_SEC / analysisSec).toFixed(1)}x real time, faces on ${withFace} frames`,
    );

    const plan = planReframe(analysis, { aspect: '9:16', quality: '1080p' });
    const renderStart = performance.now();
    await reframeVideo(source, join(dir, 'vertical.mp4'), plan);
    const renderSec = (performance.now() - renderStart) / 1000;
    console.log(
      `reframe: render ${DURATION_SEC} s to 1080x1920 (${plan.layout}, ` +
        `${plan.layout === 'crop' ? plan.keyframes.length : 0} keyframes, x264 veryfast): ` +
        `${renderSec.toFixed(1)} s, ${(DURATION_SEC / renderSec).toFixed(2)}x real time`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
