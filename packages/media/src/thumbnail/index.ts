/**
 * Thumbnails: a frame worth looking at for a video, a moment or an export (not the black first
 * frame, not a fade), and any image a link's page offered turned into a plain JPEG of ours.
 *
 * A frame is chosen in two steps: a few evenly spaced candidates of the window are decoded at a
 * tiny size (one ffmpeg run, fast seeks) and scored by brightness and contrast (a black, white or
 * flat frame scores low); then ffmpeg's `thumbnail` filter picks the most representative frame of
 * a short run around the best candidate (no half-blended frame from a cut or a dissolve).
 */
import { stat } from 'node:fs/promises';
import { MediaError } from '../errors/index.js';
import { readRawFrames, runFfmpeg, runFfprobe, spawnFfmpegStream } from '../ffmpeg/index.js';

/** Thumbnails are stored this wide (height keeps the aspect ratio). */
export const THUMBNAIL_WIDTH = 640;

const SAMPLE_WIDTH = 32;
const SAMPLE_HEIGHT = 18;
/** Candidates decoded per window: enough to step over a title card or a fade. */
const CANDIDATES = 6;

export interface FrameScore {
  /** Mean luma, 0-255. */
  brightness: number;
  /** Standard deviation of luma: how much there is to see. */
  contrast: number;
}

/** Mean and spread of an 8-bit grey frame. */
export function scoreGreyFrame(pixels: Uint8Array): FrameScore {
  let sum = 0;
  for (const value of pixels) sum += value;
  const brightness = sum / Math.max(1, pixels.length);
  let variance = 0;
  for (const value of pixels) variance += (value - brightness) ** 2;
  return { brightness, contrast: Math.sqrt(variance / Math.max(1, pixels.length)) };
}

/** Mean luma of a frame worth showing: darker is a fade or black, lighter a flash or a blank. */
export const EXPOSED_LUMA = { min: 40, max: 215 } as const;

/**
 * How good a frame looks as a thumbnail: its contrast, halved when it is near black or near white
 * (a fade, a flash, an empty slide). Later candidates win ties, so an intro card loses to content.
 */
export function thumbnailScore({ brightness, contrast }: FrameScore): number {
  const exposed = brightness >= EXPOSED_LUMA.min && brightness <= EXPOSED_LUMA.max;
  return exposed ? contrast : contrast / 2;
}

export interface PickThumbnailOptions {
  /** The window to choose from, in ms (default: the whole video). */
  startMs?: number;
  endMs?: number;
  /** The video's length, for the default window. */
  durationMs: number;
  width?: number;
  signal?: AbortSignal;
}

/** Where the candidates of a window lie: evenly spaced, away from its very edges. */
export function candidateTimes(startMs: number, endMs: number, count = CANDIDATES): number[] {
  const span = Math.max(0, endMs - startMs);
  if (span < 500) return [startMs];
  // A video's first and last tenth hold intros, fades and end cards; a moment starts on speech.
  const margin = span * 0.1;
  const step = (span - 2 * margin) / Math.max(1, count - 1);
  return Array.from({ length: count }, (_, i) => Math.round(startMs + margin + i * step));
}

/**
 * Writes a JPEG thumbnail of `input` to `outJpg`: the best-looking candidate frame of the window.
 * Throws NOT_A_VIDEO when no frame can be decoded.
 */
export async function pickThumbnail(
  input: string,
  outJpg: string,
  options: PickThumbnailOptions,
): Promise<{ atMs: number; score: FrameScore }> {
  const startMs = Math.max(0, options.startMs ?? 0);
  const endMs = Math.min(options.endMs ?? options.durationMs, options.durationMs || Infinity);
  const times = candidateTimes(startMs, endMs);
  const scores = await sampleFrames(input, times, options.signal);
  let best = 0;
  scores.forEach((score, index) => {
    if (thumbnailScore(score) >= thumbnailScore(scores[best]!)) best = index;
  });
  const atMs = times[best] ?? startMs;
  await writeRepresentativeFrame(input, outJpg, atMs, options.width ?? THUMBNAIL_WIDTH, options);
  return { atMs, score: scores[best] ?? { brightness: 0, contrast: 0 } };
}

/** Decodes one tiny grey frame at each time, in one ffmpeg run (fast seek per input). */
async function sampleFrames(
  input: string,
  times: number[],
  signal: AbortSignal | undefined,
): Promise<FrameScore[]> {
  const inputs = times.flatMap((ms) => ['-ss', (ms / 1000).toFixed(3), '-i', input]);
  const chains = times
    .map(
      (_, i) =>
        `[${i}:v:0]trim=end_frame=1,scale=${SAMPLE_WIDTH}:${SAMPLE_HEIGHT},format=gray,setsar=1[f${i}]`,
    )
    .join(';');
  const joined = times.map((_, i) => `[f${i}]`).join('');
  const stream = spawnFfmpegStream(
    [
      ...inputs,
      '-filter_complex',
      `${chains};${joined}concat=n=${times.length}:v=1:a=0[out]`,
      '-map',
      '[out]',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'gray',
      'pipe:1',
    ],
    { signal, timeoutMs: 60_000, threads: 1 },
  );
  const scores: FrameScore[] = [];
  const frames = readRawFrames(stream.stdout, SAMPLE_WIDTH * SAMPLE_HEIGHT);
  const reading = (async () => {
    for await (const frame of frames) scores.push(scoreGreyFrame(frame));
  })();
  // A candidate past the real end decodes nothing: the frames before it still count.
  const [ended] = await Promise.allSettled([stream.done, reading]);
  if (!scores.length) {
    if (ended.status === 'rejected') throw notAVideo(ended.reason);
    throw notAVideo();
  }
  return scores;
}

async function writeRepresentativeFrame(
  input: string,
  outJpg: string,
  atMs: number,
  width: number,
  options: { signal?: AbortSignal },
): Promise<void> {
  const grab = (ms: number, filter: string) =>
    runFfmpeg(
      [
        '-ss',
        (Math.max(0, ms) / 1000).toFixed(3),
        '-t',
        '2',
        '-i',
        input,
        '-map',
        '0:v:0',
        '-vf',
        `${filter}scale=${width}:-2`,
        '-frames:v',
        '1',
        '-q:v',
        '3',
        '-update',
        '1',
        outJpg,
      ],
      { signal: options.signal, timeoutMs: 60_000, threads: 1 },
    );
  // The most representative of about half a second of frames around the chosen time.
  await grab(atMs, 'thumbnail=n=12,');
  // No file: the frame was not written; the next grab tries without the filter.
  if ((await stat(outJpg).catch(() => undefined))?.size) return;
  // Fewer than 12 frames left before the end: take the frame itself.
  await grab(atMs, '');
  // No file: no picture was taken (the error below).
  if (!(await stat(outJpg).catch(() => undefined))?.size) {
    throw new MediaError('NOT_A_VIDEO', 'No picture could be taken from the video.');
  }
}

/** Image codecs a page's preview image may be in. */
const IMAGE_CODECS = new Set(['mjpeg', 'png', 'webp', 'gif', 'bmp', 'tiff', 'jpeg2000']);

/**
 * Turns an image fetched from elsewhere (a link's og:image) into a JPEG of ours, so what the app
 * serves is always a plain re-encoded picture. Throws NOT_AN_IMAGE for anything else.
 */
export async function imageToThumbnail(
  inputImage: string,
  outJpg: string,
  options: { width?: number; signal?: AbortSignal } = {},
): Promise<void> {
  let codec: string | undefined;
  let width = 0;
  try {
    const probed = JSON.parse(
      await runFfprobe(
        [
          '-v',
          'error',
          '-show_entries',
          'stream=codec_name,width,height',
          '-of',
          'json',
          inputImage,
        ],
        { signal: options.signal, timeoutMs: 20_000 },
      ),
    ) as { streams?: { codec_name?: string; width?: number; height?: number }[] };
    const stream = probed.streams?.[0];
    codec = stream?.codec_name;
    width = stream?.width ?? 0;
  } catch (error) {
    throw notAnImage(error);
  }
  if (!codec || !IMAGE_CODECS.has(codec) || width <= 0) throw notAnImage();
  const target = Math.min(options.width ?? THUMBNAIL_WIDTH, width);
  await runFfmpeg(
    [
      '-i',
      inputImage,
      '-frames:v',
      '1',
      '-vf',
      `scale=${target}:-2:flags=lanczos,format=yuvj420p`,
      '-q:v',
      '3',
      '-update',
      '1',
      outJpg,
    ],
    { signal: options.signal, timeoutMs: 30_000, threads: 1 },
  ).catch((error: unknown) => {
    throw notAnImage(error);
  });
}

function notAVideo(cause?: unknown): MediaError {
  return new MediaError('NOT_A_VIDEO', 'No picture could be taken from the video.', { cause });
}

function notAnImage(cause?: unknown): MediaError {
  return new MediaError('NOT_AN_IMAGE', 'The preview image is not a picture we can read.', {
    cause,
  });
}
export { coverLines, drawCover } from './cover.js';
