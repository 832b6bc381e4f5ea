/**
 * Reframing speed per kind of footage: for a minute (REFRAME_BENCH_SEC) of 1080p footage of each kind (one
 * speaker walking about, two people talking in turns, a slide talk with the speaker's inset, a wide
 * shot of a crowd, and all of them cut together), the shot analysis in analysed frames per second
 * beside decoding the same frames alone, the layouts the plan chose and its layout switches per
 * minute; then the mixed footage rendered to 1080x1920 beside an x264 encode alone of it.
 * Footage is made at bench time from the demo photos inside the @vladmandic/human package.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFfmpeg } from '../packages/media/src/ffmpeg/index';
import {
  DENSE_FACTOR,
  analyzeSubjects,
  planReframe,
  reframeVideo,
} from '../packages/media/src/reframe/index';
import {
  humanAssetsDir,
  makeFootage,
  slideFontFile,
  type FootageKind,
} from '../packages/media/test/support/index';

/** `REFRAME_BENCH_SEC=10` makes shorter footage: on a machine others load, a minute of each takes long. */
const DURATION_SEC = Number(process.env.REFRAME_BENCH_SEC) || 60;
const KINDS: FootageKind[] = ['speaker', 'two_people', 'slides', 'wide', 'mixed'];

const load = () => `load ${os.loadavg()[0]!.toFixed(1)}`;
const timed = async <T>(work: () => Promise<T>) => {
  const started = performance.now();
  const value = await work();
  return { value, sec: (performance.now() - started) / 1000 };
};

export default async function run(): Promise<void> {
  if (!humanAssetsDir() || !slideFontFile()) {
    console.log(
      'reframe bench skipped: the demo images of @vladmandic/human or Noto Sans are missing',
    );
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'reframe-bench-'));
  try {
    let mixed: string | undefined;
    for (const kind of KINDS) {
      const source = join(dir, `${kind}.mp4`);
      await makeFootage(kind, source, { durationSec: DURATION_SEC, fps: 30, preset: 'veryfast' });
      if (kind === 'mixed') mixed = source;
      const analysis = await timed(() => analyzeSubjects(source, {}));
      const { frames, frameSize, sampleFps, detectorRuns } = analysis.value;
      const decode = await timed(() =>
        runFfmpeg([
          ...['-i', source, '-an', '-vf'],
          `fps=${sampleFps * DENSE_FACTOR},scale=${frameSize.width}:${frameSize.height}:flags=area,format=rgb24`,
          ...['-f', 'null', '-'],
        ]),
      );
      const plan = planReframe(analysis.value, { aspect: '9:16', quality: '1080p' });
      const layouts = plan.segments
        .map((segment) => `${segment.layout}@${(segment.startMs / 1000).toFixed(1)}s`)
        .join(' ');
      const mouths = frames.filter((frame) => frame.faces.some((face) => face.mouth !== undefined));
      console.log(
        `reframe: ${kind}: analysis ${(frames.length / analysis.sec).toFixed(1)} frames/s ` +
          `(${frames.length} frames, ${detectorRuns} detector runs, ${mouths.length} with mouths measured, ` +
          `${analysis.sec.toFixed(1)} s) vs decode alone ${(frames.length / decode.sec).toFixed(1)} frames/s ` +
          `(${decode.sec.toFixed(1)} s); ${(decode.sec > 0 ? analysis.sec / decode.sec : 0).toFixed(2)}x decode; ` +
          `layouts ${layouts}; ${plan.switchesPerMinute} switches/min; captions on ${plan.captionBackground.bottom}; ${load()}`,
      );
    }
    if (mixed) await renderBesideEncode(dir, mixed);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The mixed footage reframed to 1080x1920 (every layout, one ffmpeg pass) vs the encode alone. */
async function renderBesideEncode(dir: string, source: string): Promise<void> {
  const plan = planReframe(await analyzeSubjects(source, {}), { aspect: '9:16', quality: '1080p' });
  const render = await timed(() => reframeVideo(source, join(dir, 'vertical.mp4'), plan));
  const alone = await timed(() =>
    runFfmpeg([
      ...['-i', source, '-vf', 'crop=ih*9/16:ih,scale=1080:1920:flags=lanczos,format=yuv420p'],
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-c:a', 'aac', '-b:a', '160k'],
      ...['-y', join(dir, 'alone.mp4')],
    ]),
  );
  console.log(
    `reframe: render of the mixed ${DURATION_SEC} s to 1080x1920 (${plan.segments.length} segments: ` +
      `${[...new Set(plan.segments.map((s) => s.layout))].join(', ')}): ${render.sec.toFixed(1)} s vs ` +
      `a centre crop encoded alone ${alone.sec.toFixed(1)} s; ratio ${(render.sec / alone.sec).toFixed(2)}; ${load()}`,
  );
}
