/**
 * Reframing real-looking footage made at test time from real photos (the demo images inside the
 * @vladmandic/human package): a slide talk with the speaker in an inset, two people sitting apart,
 * one speaker walking about, a wide shot of a crowd, and a conversation whose turns alternate.
 * Each 9:16 export is rendered by ffmpeg and checked as a viewer would see it: the slide's lines
 * and the captions read back by OCR (tesseract), faces found whole by a face detector in the
 * exported frames (letterboxed to a square first: BlazeFace squashes its input to a square), and
 * the windows' frame-to-frame motion bounded.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCaptionsAss, captionBand, captionsFilter } from '../captions/index';
import { readRawFrames, runFfmpeg, spawnFfmpegStream } from '../ffmpeg/index';
import { humanAssetsDir, makeFootage, slideFontFile, SLIDE_LINES } from '../../test/support/index';
import { loadFaceDetector, type FaceBox } from './detect';
import {
  analyzeSubjects,
  captionRegion,
  planReframe,
  reframeFilter,
  whoSpeaks,
  windowAt,
  type LayoutChoice,
  type Pane,
  type ReframePlan,
} from './index';

const run = promisify(execFile);
const hasFootage = Boolean(humanAssetsDir() && slideFontFile());
if (!hasFootage) {
  console.warn(
    'layout tests skipped: the demo images of @vladmandic/human or Noto Sans are missing',
  );
}
const FPS = 25;
const OUTPUT = { width: 720, height: 1280 };
const CAPTION_WORDS = 'sales doubled this spring'.split(' ');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reframe-layouts-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Footage of `kind`, analysed and planned for a 9:16 720p export. */
async function planned(
  kind: Parameters<typeof makeFootage>[0],
  durationSec: number,
  options: { layout?: LayoutChoice; talker?: 'left' | 'right' | 'both' | 'alternate' } = {},
) {
  const footage = await makeFootage(kind, join(dir, `${kind}-${options.talker ?? ''}.mp4`), {
    durationSec,
    talker: options.talker,
  });
  const analysis = await analyzeSubjects(footage.file, {});
  const plan = planReframe(analysis, { aspect: '9:16', quality: '720p', layout: options.layout });
  return { file: footage.file, analysis, plan };
}

/** Renders the plan with the caption words burnt in (backing as the plan's verdict asks). */
async function render(file: string, plan: ReframePlan, name: string): Promise<string> {
  const verdict = plan.captionBackground.bottom;
  const ass = join(dir, `${name}.ass`);
  await writeFile(
    ass,
    buildCaptionsAss({
      words: CAPTION_WORDS.map((text, i) => ({
        text,
        startMs: 200 + i * 150,
        endMs: 300 + i * 150,
      })),
      template: 'karaoke',
      display: 'source',
      width: OUTPUT.width,
      height: OUTPUT.height,
      backing: verdict === 'light' ? 'box' : verdict === 'busy' ? 'outline' : 'none',
      // Where the exporter puts them: between stacked panes, clear of the faces.
      region: captionRegion(plan) ?? undefined,
    }),
  );
  const out = join(dir, `${name}.mp4`);
  await runFfmpeg([
    ...['-t', ((plan.endMs - plan.startMs) / 1000).toFixed(3), '-i', file],
    ...['-vf', `${reframeFilter(plan)},format=yuv420p,${captionsFilter(ass)}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '18', '-an', '-y', out],
  ]);
  return out;
}

/** Text tesseract reads in a rectangle of the export's frame at `atSec`. */
async function ocr(
  video: string,
  atSec: number,
  rect: { x: number; y: number; w: number; h: number },
  name: string,
): Promise<string> {
  const png = join(dir, `${name}-${atSec}.png`);
  await runFfmpeg([
    ...['-ss', String(atSec), '-i', video, '-frames:v', '1'],
    ...['-vf', `crop=${rect.w}:${rect.h}:${rect.x}:${rect.y},scale=iw*2:ih*2:flags=lanczos`],
    ...['-y', png],
  ]);
  const { stdout } = await run('tesseract', [png, '-', '--psm', '6', '-l', 'eng']);
  return stdout.replace(/\s+/g, ' ').toLowerCase();
}

/** The band the bottom captions occupy in an export of `plan`. */
const bandOf = (plan: ReframePlan) =>
  captionBand(OUTPUT.width, OUTPUT.height, 'bottom', 'source', captionRegion(plan) ?? undefined);

/** The caption words, read by OCR in the band the bottom captions occupy, shortly after they start. */
async function expectCaptionsRead(video: string, plan: ReframePlan, name: string): Promise<void> {
  const band = bandOf(plan);
  const rect = { x: 0, y: band.top - 20, w: OUTPUT.width, h: band.bottom - band.top + 40 };
  const captions = await ocr(video, 0.9, rect, name);
  const read = wordsRead(CAPTION_WORDS.join(' '), captions);
  console.log(`${name}: ${Math.round(read * 100)}% of caption words read`);
  expect(read, `captions read as: ${captions}`).toBeGreaterThanOrEqual(0.75);
}

/** Share of a line's words that appear in `text`. */
function wordsRead(line: string, text: string): number {
  const words = line.toLowerCase().split(' ');
  return words.filter((word) => text.includes(word)).length / words.length;
}

/**
 * Faces the detector finds in the export every `stepSec`: each portrait frame letterboxed to a
 * square (BlazeFace squashes its input to a square), boxes in output pixels.
 */
async function facesInExport(video: string, stepSec: number): Promise<FaceBox[][]> {
  const side = 640;
  const scale = side / OUTPUT.height;
  const padX = (side - OUTPUT.width * scale) / 2;
  const stream = spawnFfmpegStream([
    ...['-i', video],
    ...['-vf', `fps=1/${stepSec},scale=-2:${side},pad=${side}:${side}:(ow-iw)/2:0,format=rgb24`],
    ...['-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
  ]);
  const detector = await loadFaceDetector();
  const frames: FaceBox[][] = [];
  for await (const rgb of readRawFrames(stream.stdout, side * side * 3)) {
    const faces = await detector.detectFaces(rgb, side, side);
    frames.push(
      faces.map((face) => ({
        ...face,
        x: (face.x - padX) / scale,
        y: face.y / scale,
        w: face.w / scale,
        h: face.h / scale,
      })),
    );
  }
  await stream.done;
  return frames;
}

/** A face box wholly inside a pane (a face cut by the pane's edge reaches the edge). */
function wholeIn(face: FaceBox, pane: Pick<Pane, 'x' | 'y' | 'w' | 'h'>): boolean {
  const margin = 2;
  return (
    face.x >= pane.x + margin &&
    face.y >= pane.y + margin &&
    face.x + face.w <= pane.x + pane.w - margin &&
    face.y + face.h <= pane.y + pane.h - margin
  );
}

/** Whether a face box and the caption band share any row of the frame. */
function overlapsBand(face: FaceBox, band: { top: number; bottom: number }): boolean {
  return face.y < band.bottom && face.y + face.h > band.top;
}

/**
 * Largest frame-to-frame move of any pane's window, in window widths per frame, leaving out the
 * jumps a plan makes on purpose (cuts, a change of speaker or layout).
 */
function largestStep(plan: ReframePlan): number {
  let largest = 0;
  for (const segment of plan.segments) {
    for (const pane of segment.panes) {
      const jumps = new Set(
        pane.keyframes
          .filter((k, i) => i > 0 && k.tMs === pane.keyframes[i - 1]!.tMs)
          .map((k) => k.tMs),
      );
      for (let t = segment.startMs; t + 1000 / FPS < segment.endMs; t += 1000 / FPS) {
        const next = t + 1000 / FPS;
        if ([...jumps].some((jump) => jump > t && jump <= next)) continue;
        const a = windowAt(pane.keyframes, t);
        const b = windowAt(pane.keyframes, next);
        largest = Math.max(largest, Math.abs(b.x - a.x) / a.w, Math.abs(b.y - a.y) / a.h);
      }
    }
  }
  return largest;
}

// Footage is made, analysed and rendered at 1080p source size: minutes on a loaded 2-core machine.
describe.skipIf(!hasFootage)('9:16 exports of real-looking footage', { timeout: 300_000 }, () => {
  it('a slide talk with a speaker inset keeps the slide whole and readable, the speaker below, the captions readable', async () => {
    const { file, plan } = await planned('slides', 8);
    expect(plan.layout).toBe('slide_speaker');
    const [slide, speaker] = plan.segments[0]!.panes;
    const video = await render(file, plan, 'slides');
    let readable = 0;
    const slideText = await ocr(video, 1, slide!, 'slide');
    for (const line of SLIDE_LINES) if (wordsRead(line, slideText) >= 0.8) readable++;
    console.log(
      `slide talk (slide + speaker): ${readable} of ${SLIDE_LINES.length} slide lines read`,
    );
    expect(readable, `slide read as: ${slideText}`).toBeGreaterThanOrEqual(2);

    // The speaker's face fills the pane below the slide, whole.
    const faces = await facesInExport(video, 1);
    const withSpeaker = faces.filter((frame) => frame.some((face) => wholeIn(face, speaker!)));
    console.log(
      `slide talk: speaker's face whole in ${withSpeaker.length} of ${faces.length} frames`,
    );
    expect(withSpeaker.length / faces.length).toBeGreaterThanOrEqual(0.98);

    await expectCaptionsRead(video, plan, 'slide-captions');
    // The captions sit under the slide, clear of the speaker's face; the slide's own inset of the
    // speaker is painted over (the detector finds no face in the slide pane).
    const band = bandOf(plan);
    expect(band.top).toBeGreaterThanOrEqual(slide!.y + slide!.h);
    const speakerFaces = faces.flat().filter((face) => wholeIn(face, speaker!));
    expect(speakerFaces.every((face) => !overlapsBand(face, band))).toBe(true);
    const inSlide = faces.flat().filter((face) => face.y + face.h <= slide!.y + slide!.h);
    console.log(`slide talk: ${inSlide.length} faces found in the slide pane`);
    expect(inSlide).toEqual([]);
  });

  it('fitted whole, the white slide puts a box behind the white captions, and OCR reads both', async () => {
    const { file, plan } = await planned('slides', 4, { layout: 'fit' });
    expect(plan.layout).toBe('blur_fit');
    // Under the bottom captions is the blurred white slide.
    expect(plan.captionBackground.bottom).toBe('light');
    const video = await render(file, plan, 'slides-fit');
    const slideText = await ocr(video, 1, plan.segments[0]!.panes[0]!, 'slide-fit');
    const readable = SLIDE_LINES.filter((line) => wordsRead(line, slideText) >= 0.8).length;
    console.log(`slide talk (fit): ${readable} of ${SLIDE_LINES.length} slide lines read`);
    expect(readable, `slide read as: ${slideText}`).toBeGreaterThanOrEqual(2);
    await expectCaptionsRead(video, plan, 'fit-captions');
  });

  it('two people sitting apart, both talking: both faces whole in at least 80% of frames, the captions between them', async () => {
    const { file, plan } = await planned('two_people', 10, { talker: 'both' });
    expect(plan.layout).toBe('split');
    const [top, bottom] = plan.segments[0]!.panes;
    const video = await render(file, plan, 'two');
    await expectCaptionsRead(video, plan, 'two-captions');
    const faces = await facesInExport(video, 0.5);
    // The caption band lies between the two faces: it crosses neither.
    const band = bandOf(plan);
    const overlapping = faces.flat().filter((face) => overlapsBand(face, band));
    console.log(
      `two people: caption band ${band.top}-${band.bottom}, ${overlapping.length} of ` +
        `${faces.flat().length} faces overlap it`,
    );
    expect(overlapping).toEqual([]);
    const both = faces.filter(
      (frame) =>
        frame.some((face) => wholeIn(face, top!)) && frame.some((face) => wholeIn(face, bottom!)),
    );
    console.log(
      `two people: both faces whole in ${both.length} of ${faces.length} frames; ` +
        `largest step ${largestStep(plan).toFixed(4)} windows/frame`,
    );
    expect(both.length / faces.length).toBeGreaterThanOrEqual(0.8);
    expect(largestStep(plan)).toBeLessThanOrEqual(1 / FPS + 0.002); // at most a window a second
  });

  it('a single moving speaker: face whole in at least 98% of frames, no layout switch', async () => {
    const { file, plan } = await planned('speaker', 12);
    expect(plan.layout).toBe('crop');
    console.log(`single speaker: ${plan.switchesPerMinute} layout switches per minute`);
    expect(plan.switchesPerMinute).toBe(0);
    const faces = await facesInExport(await render(file, plan, 'speaker'), 0.25);
    const whole = faces.filter((frame) =>
      frame.some((face) => wholeIn(face, { x: 0, y: 0, w: OUTPUT.width, h: OUTPUT.height })),
    );
    console.log(
      `single speaker: face whole in ${whole.length} of ${faces.length} frames; ` +
        `largest step ${largestStep(plan).toFixed(4)} windows/frame`,
    );
    expect(whole.length / faces.length).toBeGreaterThanOrEqual(0.98);
    expect(largestStep(plan)).toBeLessThanOrEqual(1 / FPS + 0.002);
  });

  it('a wide shot of a crowd is fitted whole over a blurred fill', async () => {
    const { plan, analysis } = await planned('wide', 5);
    expect(plan.layout).toBe('blur_fit');
    expect(plan.segments[0]!.backdrop).toBe(true);
    expect(analysis.frames.filter((frame) => frame.faces.length >= 3).length).toBeGreaterThan(
      analysis.frames.length / 2,
    );
  });

  it('a conversation in turns: the close-up goes to whoever talks, with few switches', async () => {
    const { plan, analysis } = await planned('two_people', 24, { talker: 'alternate' });
    console.log(
      `conversation: ${plan.segments.map((s) => `${s.layout}@${(s.startMs / 1000).toFixed(1)}`).join(' ')}, ` +
        `${plan.switchesPerMinute} layout switches per minute`,
    );
    // Turns of 6 s: the left speaker first. Whatever the layout, the talker is in the picture.
    const talkerShown = analysis.frames.filter((frame) => {
      const leftTalks = Math.floor(frame.tMs / 6000) % 2 === 0;
      const segment = plan.segments.find((s) => frame.tMs >= s.startMs && frame.tMs < s.endMs)!;
      const talker = frame.faces.filter((face) => face.h > 100).sort((a, b) => a.x - b.x)[
        leftTalks ? 0 : 1
      ];
      if (!talker) return false;
      return segment.panes.some((pane) => {
        const window = windowAt(pane.keyframes, frame.tMs);
        return talker.x >= window.x && talker.x + talker.w <= window.x + window.w;
      });
    });
    console.log(
      `conversation: talker shown in ${talkerShown.length} of ${analysis.frames.length} frames`,
    );
    expect(talkerShown.length / analysis.frames.length).toBeGreaterThanOrEqual(0.9);
    // A close-up on the talker for part of each turn, and no ping-pong.
    expect(plan.segments.some((segment) => segment.layout === 'speaker')).toBe(true);
    expect(plan.switchesPerMinute).toBeLessThanOrEqual(12);
    expect(plan.segments.every((s) => s.endMs - s.startMs >= 2000)).toBe(true);
  });
});

describe('who is speaking', () => {
  const series = <T>(n: number, f: (i: number) => T): T[] =>
    Array.from({ length: n }, (_, i) => f(i));
  const syllables = series(16, (i) => Math.abs(Math.sin(i * 1.3)));

  it('is the face whose mouth opens with the sound; both when both do; unclear otherwise', () => {
    const energy = syllables.map((s) => -50 + 30 * s);
    const still = (i: number) => 0.011 + (i % 2) * 0.0005;
    const talking = (i: number) => 0.01 + 0.03 * syllables[i]!;
    const samples = (a: (i: number) => number, b: (i: number) => number) =>
      series(16, (i) => ({ a: a(i), b: b(i), energy: energy[i]! }));
    expect(whoSpeaks(samples(talking, still), 'left', 'right')).toBe('left');
    expect(whoSpeaks(samples(still, talking), 'left', 'right')).toBe('right');
    expect(whoSpeaks(samples(talking, talking), 'left', 'right')).toBe('both');
    expect(whoSpeaks(samples(still, still), 'left', 'right')).toBe('unclear');
    // Silence: nobody can be said to speak, however the mouths move.
    const quiet = series(16, (i) => ({ a: talking(i), b: still(i), energy: -70 }));
    expect(whoSpeaks(quiet, 'left', 'right')).toBe('unclear');
  });
});
