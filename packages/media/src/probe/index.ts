/**
 * What a media file is (ffprobe), how long it really is (its packets), whether an upload is a
 * video we accept, and the two extractions every task starts with: speech audio for recognition
 * and a thumbnail.
 */
import { open, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { MediaError } from '../errors/index.js';
import {
  FFmpegError,
  runFfmpeg,
  runFfprobe,
  runFfprobeLines,
  spawnFfmpegStream,
} from '../ffmpeg/index.js';
import { PACKET_FIELDS, PacketExtent } from './length.js';

export interface MediaInfo {
  /**
   * The length: from the packets when measured (`measureMedia`, `validateUploadedVideo`), else
   * what the container's header states (`probeMedia`), which an edited file can understate.
   */
  durationMs: number;
  /** What the header stated, beside a measured `durationMs` (a header that lies shows here). */
  headerDurationMs?: number;
  width?: number;
  height?: number;
  /** Average frame rate of the first video stream. */
  fps?: number;
  /** Clockwise rotation the player applies (phones record portrait video as rotated landscape). */
  rotation?: number;
  hasVideo: boolean;
  hasAudio: boolean;
  /** ffprobe's demuxer names, e.g. `mov,mp4,m4a,3gp,3g2,mj2` or `matroska,webm`. */
  formatName: string;
  videoCodec?: string;
  audioCodec?: string;
  sizeBytes: number;
}

interface ProbeStream {
  index?: number;
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  duration?: string;
  disposition?: { attached_pic?: number };
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}

interface ProbeOutput {
  streams?: ProbeStream[];
  format?: { format_name?: string; duration?: string; size?: string };
}

/** Describe a media file with ffprobe. Throws MediaError CORRUPT_MEDIA when ffprobe cannot read it. */
export async function probeMedia(
  file: string,
  opts: { signal?: AbortSignal } = {},
): Promise<MediaInfo> {
  return (await describeMedia(file, opts)).info;
}

export interface MeasureOptions {
  signal?: AbortSignal;
  /** Kill ffprobe after this long. Default 10 minutes: the whole file is read. */
  timeoutMs?: number;
}

/**
 * Describe a media file with its real length: `durationMs` is where its last picture or sound
 * ends, read from the packets of the streams the product uses (the first video, the first
 * audio), and `headerDurationMs` what the container claimed. This reads the whole file (about
 * 2 s for 70 minutes of 720p on a busy 2-core machine), so it is for the places that price or
 * bound the work; `probeMedia` reads only the header. Throws MediaError CORRUPT_MEDIA when no
 * packet can be read.
 */
export async function measureMedia(file: string, opts: MeasureOptions = {}): Promise<MediaInfo> {
  const { info, streams } = await describeMedia(file, opts);
  return withMeasuredLength(file, info, streams, opts);
}

async function withMeasuredLength(
  file: string,
  info: MediaInfo,
  streams: number[],
  opts: MeasureOptions,
): Promise<MediaInfo> {
  const lengthMs = await measurePacketLength(file, streams, opts);
  if (lengthMs <= 0) {
    throw new MediaError('CORRUPT_MEDIA', 'The video has no playable length.');
  }
  return { ...info, durationMs: lengthMs, headerDurationMs: info.durationMs };
}

/** From the first to the last packet of `streams`, in ms; 0 when none could be read. */
async function measurePacketLength(
  file: string,
  streams: number[],
  opts: MeasureOptions,
): Promise<number> {
  const extent = new PacketExtent(streams);
  try {
    await runFfprobeLines(
      ['-v', 'error', '-show_entries', PACKET_FIELDS, '-of', 'csv=p=0', '--', file],
      (line) => extent.add(line),
      { signal: opts.signal, timeoutMs: opts.timeoutMs ?? 10 * 60_000 },
    );
  } catch (error) {
    // The header read, the packets did not: the file is what is broken, not the tool.
    if (error instanceof FFmpegError && error.code === 'FFPROBE_FAILED') {
      throw new MediaError('CORRUPT_MEDIA', 'The video file is damaged or incomplete.', {
        cause: error,
        details: { stderrTail: error.stderrTail },
      });
    }
    throw error;
  }
  return extent.lengthMs();
}

/** The header's facts, and the indexes of the streams whose packets make the real length. */
async function describeMedia(
  file: string,
  opts: { signal?: AbortSignal },
): Promise<{ info: MediaInfo; streams: number[] }> {
  const sizeBytes = (await stat(file)).size;
  let output: ProbeOutput;
  try {
    output = JSON.parse(
      await runFfprobe(
        ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', '--', file],
        {
          signal: opts.signal,
        },
      ),
    ) as ProbeOutput;
  } catch (error) {
    if (error instanceof FFmpegError && error.code === 'FFPROBE_FAILED') {
      throw new MediaError('CORRUPT_MEDIA', 'The file could not be read as media.', {
        cause: error,
        details: { stderrTail: error.stderrTail },
      });
    }
    throw error;
  }
  const streams = output.streams ?? [];
  // Cover art in audio files shows up as a one-frame "video" stream; it is not a video.
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audio = streams.find((s) => s.codec_type === 'audio');
  const durations = [output.format?.duration, ...streams.map((s) => s.duration)]
    .map((value) => Number(value))
    .filter((value) => Number.isFinite(value) && value > 0);
  const info: MediaInfo = {
    durationMs: durations.length > 0 ? Math.round(durations[0]! * 1000) : 0,
    hasVideo: video !== undefined,
    hasAudio: audio !== undefined,
    formatName: output.format?.format_name ?? '',
    sizeBytes,
  };
  if (video) {
    if (video.width) info.width = video.width;
    if (video.height) info.height = video.height;
    const fps = parseRate(video.avg_frame_rate) ?? parseRate(video.r_frame_rate);
    if (fps) info.fps = fps;
    if (video.codec_name) info.videoCodec = video.codec_name;
    const rotation = Number(
      video.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? video.tags?.rotate,
    );
    if (Number.isFinite(rotation) && rotation !== 0)
      info.rotation = ((-rotation % 360) + 360) % 360;
  }
  if (audio?.codec_name) info.audioCodec = audio.codec_name;
  const measured = [video?.index, audio?.index].filter(
    (index): index is number => index !== undefined,
  );
  return { info, streams: measured };
}

/**
 * The largest picture taken, in pixels: 8K UHD (7680x4320), either way up. Every stage decodes
 * whole frames (thumbnails decode several at once, framing and export scale them), and a larger
 * one takes gigabytes and minutes per step: refused up front with what is wrong, instead of
 * failing later as if it were not a video.
 */
export const MAX_FRAME_PIXELS = 7680 * 4320;

/** Uploaded videos are mp4, mov or webm. */
export const ACCEPTED_UPLOAD_EXTENSIONS = ['mp4', 'mov', 'webm'] as const;

// ffprobe names the ISO-BMFF demuxer `mov,mp4,...` and the Matroska one `matroska,webm`.
const ACCEPTED_FORMAT_PARTS = ['mov', 'mp4', 'webm', 'matroska'];

export interface ValidateOptions {
  /**
   * Told the header's facts once they show an accepted video, before its packets are read: work
   * that needs the picture (a thumbnail) can start beside the rest of the checks. Its length is
   * the header's claim, not yet the measured one.
   */
  onHeader?: (header: MediaInfo) => void;
}

/**
 * Check an uploaded file before anything else touches it: the name must end in an accepted
 * extension and the content must really be such a video (right container, a video stream,
 * packets that play for some time, not cut short). Returns the probe result, its length measured
 * from the packets.
 */
export async function validateUploadedVideo(
  file: string,
  originalName: string,
  opts: ValidateOptions = {},
): Promise<MediaInfo> {
  const extension = extname(originalName).slice(1).toLowerCase();
  if (!(ACCEPTED_UPLOAD_EXTENSIONS as readonly string[]).includes(extension)) {
    throw new MediaError(
      'UNSUPPORTED_EXTENSION',
      `Only ${ACCEPTED_UPLOAD_EXTENSIONS.join(', ')} videos can be uploaded${extension ? ` (got .${extension})` : ''}.`,
    );
  }
  const size = (await stat(file)).size;
  if (size === 0) throw new MediaError('EMPTY_FILE', 'The uploaded file is empty.');

  const container = await sniffContainer(file);
  let described: Awaited<ReturnType<typeof describeMedia>>;
  try {
    described = await describeMedia(file, {});
  } catch (error) {
    if (error instanceof MediaError && error.code === 'CORRUPT_MEDIA' && container === undefined) {
      throw notAVideo(error);
    }
    if (error instanceof MediaError && error.code === 'CORRUPT_MEDIA') {
      throw new MediaError('CORRUPT_MEDIA', 'The video file is damaged or incomplete.', {
        cause: error,
      });
    }
    throw error;
  }
  const family = described.info.formatName.split(',');
  if (container === undefined || !family.some((name) => ACCEPTED_FORMAT_PARTS.includes(name))) {
    throw notAVideo();
  }
  if (!described.info.hasVideo) {
    throw new MediaError('NOT_A_VIDEO', 'The file has no video picture (audio only?).');
  }
  // A picture over the limit is refused below, before anything decodes its frames.
  const { width = 0, height = 0 } = described.info;
  if (width * height <= MAX_FRAME_PIXELS) opts.onHeader?.(described.info);
  // The length from the packets, not the header: a header can understate it (to be priced
  // for less, or to pass a plan's limit), and browser recordings (MediaRecorder webm) state none.
  const info = await withMeasuredLength(file, described.info, described.streams, {});
  if ((info.width ?? 0) * (info.height ?? 0) > MAX_FRAME_PIXELS) {
    throw new MediaError(
      'VIDEO_FRAME_TOO_LARGE',
      "This video's picture is larger than 8K (7680x4320), the most Moments can process. Export it at 4K or smaller and upload it again.",
      { details: { width: info.width, height: info.height } },
    );
  }
  await assertEndIsReadable(file);
  return info;
}

export interface ExtractOptions {
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
  /** Total input length, for progress fractions. */
  durationMs?: number;
  /**
   * At most this much audio is written (the length the work was priced for): a file that holds
   * more sound than measured is never heard past it.
   */
  maxDurationMs?: number;
  /** Which audio stream to read (`0:a:N`, see speechAudioStream); default the first. */
  audioStream?: number;
}

/** Speech audio for recognition: 16 kHz mono 16-bit PCM WAV of one audio stream. */
export async function extractAudioForAsr(
  input: string,
  outWav: string,
  opts: ExtractOptions = {},
): Promise<string> {
  const { maxDurationMs, audioStream, ...runOptions } = opts;
  // The cut counts samples rather than trusting the stream's timestamps, which a crafted file
  // could squeeze so that an hour of sound claims a minute.
  const bound =
    maxDurationMs !== undefined
      ? ['-af', 'asetpts=N/SR/TB', '-t', (maxDurationMs / 1000).toFixed(3)]
      : [];
  try {
    await runFfmpeg(
      [
        ...['-i', input, '-map', `0:a:${audioStream ?? 0}`, '-vn', '-ac', '1', '-ar', '16000'],
        ...bound,
        ...['-c:a', 'pcm_s16le', '-f', 'wav', outWav],
      ],
      { durationMs: maxDurationMs, ...runOptions },
    );
  } catch (error) {
    if (error instanceof FFmpegError && /matches no streams/.test(error.stderrTail)) {
      throw new MediaError('NO_AUDIO', 'The video has no sound to transcribe.', { cause: error });
    }
    throw error;
  }
  return outWav;
}

/** A 100 ms frame quieter than this is silence (room tone, hiss); speech is far above it. */
const SILENT_FRAME_DBFS = -45;
const VOICE_SAMPLE_RATE = 8000;
const VOICE_FRAME_SAMPLES = VOICE_SAMPLE_RATE / 10;
/** How much of each stream is heard: all of a short file, else this many windows across it. */
const VOICE_WINDOWS = 8;
const VOICE_WINDOW_MS = 30_000;

/**
 * Which audio stream holds the speech (`0:a:N`): a file with several (a silent or music track
 * first, the voice second; a commentary track) would otherwise be transcribed from its first.
 * With one stream or none, 0 without decoding anything. With more, each is decoded at 8 kHz over
 * the whole file, or over windows spread across a long one, and the one with the most time above
 * silence wins; the earlier stream wins a tie. A heuristic: of two voiced tracks (two languages)
 * it keeps the busier.
 */
export async function speechAudioStream(
  file: string,
  opts: { signal?: AbortSignal } = {},
): Promise<number> {
  const probed = JSON.parse(
    await runFfprobe(
      [
        ...['-v', 'error', '-select_streams', 'a', '-show_entries', 'stream=index:format=duration'],
        ...['-of', 'json', '--', file],
      ],
      { signal: opts.signal },
    ),
  ) as { streams?: unknown[]; format?: { duration?: string } };
  const count = probed.streams?.length ?? 0;
  if (count <= 1) return 0;
  const durationMs = Math.round(Number(probed.format?.duration ?? 0) * 1000) || 0;
  const windows = voiceWindows(durationMs);
  let best = 0;
  let bestVoiced = -1;
  for (let stream = 0; stream < count; stream++) {
    const voiced = await voicedFrames(file, stream, windows, opts.signal);
    if (voiced > bestVoiced) {
      best = stream;
      bestVoiced = voiced;
    }
  }
  return best;
}

/** The spans heard: the whole file (unknown length too), else windows spread evenly across it. */
function voiceWindows(durationMs: number): { startMs: number; lengthMs: number | null }[] {
  if (durationMs <= VOICE_WINDOWS * VOICE_WINDOW_MS) return [{ startMs: 0, lengthMs: null }];
  const step = (durationMs - VOICE_WINDOW_MS) / (VOICE_WINDOWS - 1);
  return Array.from({ length: VOICE_WINDOWS }, (_, i) => ({
    startMs: Math.round(i * step),
    lengthMs: VOICE_WINDOW_MS,
  }));
}

/** 100 ms frames of `0:a:stream` louder than silence, over the windows; 0 when it cannot be decoded. */
async function voicedFrames(
  file: string,
  stream: number,
  windows: { startMs: number; lengthMs: number | null }[],
  signal: AbortSignal | undefined,
): Promise<number> {
  const inputs = windows.flatMap(({ startMs, lengthMs }) => [
    ...(startMs > 0 ? ['-ss', (startMs / 1000).toFixed(3)] : []),
    ...(lengthMs === null ? [] : ['-t', (lengthMs / 1000).toFixed(3)]),
    '-i',
    file,
  ]);
  const chains = windows.map(
    (_, i) =>
      `[${i}:a:${stream}]aresample=${VOICE_SAMPLE_RATE},aformat=sample_fmts=s16:channel_layouts=mono[w${i}]`,
  );
  const joined = `${windows.map((_, i) => `[w${i}]`).join('')}concat=n=${windows.length}:v=0:a=1[voice]`;
  const decode = spawnFfmpegStream(
    [
      ...inputs,
      ...['-filter_complex', `${chains.join(';')};${joined}`, '-map', '[voice]'],
      ...['-f', 's16le', 'pipe:1'],
    ],
    { signal, timeoutMs: 10 * 60_000, threads: 1 },
  );
  let voiced = 0;
  let sum = 0;
  let count = 0;
  let carry: Buffer | undefined;
  decode.stdout.on('data', (chunk: Buffer) => {
    const data = carry ? Buffer.concat([carry, chunk]) : chunk;
    const usable = data.length - (data.length % 2);
    for (let offset = 0; offset < usable; offset += 2) {
      const sample = data.readInt16LE(offset) / 32768;
      sum += sample * sample;
      if (++count === VOICE_FRAME_SAMPLES) {
        if (10 * Math.log10(sum / count + 1e-12) > SILENT_FRAME_DBFS) voiced += 1;
        sum = 0;
        count = 0;
      }
    }
    carry = usable < data.length ? data.subarray(usable) : undefined;
  });
  try {
    await decode.done;
  } catch (error) {
    // A stream ffmpeg cannot decode holds no speech we could transcribe either.
    if (error instanceof FFmpegError && error.code === 'FFMPEG_FAILED') return 0;
    throw error;
  }
  return voiced;
}

/** A span of an ASR WAV (extractAudioForAsr's output) as a WAV of its own: one chunk to transcribe. */
export async function extractAudioSpan(
  inputWav: string,
  outWav: string,
  span: { startMs: number; endMs: number },
  opts: ExtractOptions = {},
): Promise<string> {
  // -ss before -i on PCM is sample-accurate, and reads only the span.
  await runFfmpeg(
    [
      '-ss',
      (span.startMs / 1000).toFixed(3),
      '-t',
      ((span.endMs - span.startMs) / 1000).toFixed(3),
      '-i',
      inputWav,
      '-c:a',
      'pcm_s16le',
      '-f',
      'wav',
      outWav,
    ],
    opts,
  );
  return outWav;
}

/**
 * One JPEG frame at `atMs` (clamped into the video), scaled to `width` (default 640) keeping
 * the aspect ratio.
 */
export async function extractThumbnail(
  input: string,
  outJpg: string,
  atMs: number,
  opts: { width?: number; signal?: AbortSignal } = {},
): Promise<string> {
  const width = opts.width ?? 640;
  const grab = (ms: number) =>
    runFfmpeg(
      [
        '-ss',
        (Math.max(0, ms) / 1000).toFixed(3),
        '-i',
        input,
        '-frames:v',
        '1',
        '-vf',
        `scale=${width}:-2`,
        '-q:v',
        '3',
        '-update',
        '1',
        outJpg,
      ],
      { signal: opts.signal, timeoutMs: 60_000 },
    );
  await grab(atMs);
  // Seeking past the end writes nothing; fall back to the first frame.
  if ((await stat(outJpg).catch(() => undefined))?.size) return outJpg;
  await grab(0);
  // No file: no picture was taken (the error below).
  if (!(await stat(outJpg).catch(() => undefined))?.size) {
    throw new MediaError('NOT_A_VIDEO', 'No picture could be taken from the video.');
  }
  return outJpg;
}

// ---------------------------------------------------------------------------------------------

function notAVideo(cause?: unknown): MediaError {
  return new MediaError('NOT_A_VIDEO', 'The file is not an mp4, mov or webm video.', { cause });
}

/** Container family from the first bytes, so a damaged real video is told apart from non-video. */
async function sniffContainer(file: string): Promise<'isobmff' | 'matroska' | undefined> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(12);
    const { bytesRead } = await handle.read(head, 0, 12, 0);
    if (bytesRead >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return 'matroska';
    const box = bytesRead >= 8 ? head.toString('latin1', 4, 8) : '';
    if (['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip', 'pnot'].includes(box)) return 'isobmff';
    return undefined;
  } finally {
    await handle.close();
  }
}

/**
 * A file cut short after its index (mp4 with faststart, webm) still probes fine; demuxing its
 * last second is where the missing bytes show up.
 */
async function assertEndIsReadable(file: string): Promise<void> {
  const demux = spawnFfmpegStream(
    ['-v', 'error', '-sseof', '-1', '-i', file, '-map', '0:v:0', '-c', 'copy', '-f', 'null', '-'],
    { timeoutMs: 60_000, niceness: 0 },
  );
  demux.stdout.resume();
  let failed = false;
  try {
    await demux.done;
  } catch (error) {
    if (!(error instanceof FFmpegError) || error.code !== 'FFMPEG_FAILED') throw error;
    failed = true;
  }
  // These demuxer messages come with exit status 0, so stderr is read as well.
  const stderr = demux.stderrTail();
  if (failed || TRUNCATION_MESSAGES.test(stderr)) {
    throw new MediaError('CORRUPT_MEDIA', 'The video file is damaged or incomplete.', {
      details: { stderrTail: stderr },
    });
  }
}

const TRUNCATION_MESSAGES =
  /partial file|ended prematurely|truncat|invalid data found|error reading/i;

function parseRate(rate: string | undefined): number | undefined {
  if (!rate) return undefined;
  const [num, den] = rate.split('/').map(Number);
  if (!num || !den) return undefined;
  return Math.round((num / den) * 1000) / 1000;
}
