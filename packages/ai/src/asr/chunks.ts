/**
 * Long audio transcribed in chunks: cut at silences into pieces of a few
 * minutes, each transcribed on its own (by any worker), then merged back in order with word times
 * on the whole file's clock. Memory is bounded by the chunk, not by the input, and the first
 * chunks are done (and their moments shown) long before the last.
 */
import type { Transcript, TranscriptSegment } from './types';

export interface ChunkSpan {
  startMs: number;
  endMs: number;
}

export interface ChunkPlanOptions {
  /** The length aimed at (default 3 minutes). */
  targetMs?: number;
  /** How far before and after the target a cut may move to find a silence (default 45 s). */
  slackMs?: number;
  /** The quiet stretch a cut sits in the middle of (default 400 ms). */
  quietMs?: number;
}

const FRAME_MS = 10;

/**
 * The chunk plan options for `durationMs` of audio heard by `parallelism` Whisper processes: the
 * configured length, or shorter (not under `minChunkMs`) so that each process gets a chunk, with
 * a quarter of the target either way to find a silence, so near-equal chunks finish together.
 */
export function chunkPlanFor(
  durationMs: number,
  {
    chunkMs,
    parallelism,
    minChunkMs = 45_000,
  }: { chunkMs: number; parallelism: number; minChunkMs?: number },
): Required<Pick<ChunkPlanOptions, 'targetMs' | 'slackMs'>> {
  const targetMs = Math.min(
    chunkMs,
    Math.max(minChunkMs, Math.ceil(durationMs / Math.max(1, parallelism))),
  );
  return { targetMs, slackMs: Math.min(45_000, targetMs / 4) };
}

/**
 * Where to cut `durationMs` of audio, given its loudness every 10 ms (speech-onsets' frameLoudness):
 * each cut lies in the quietest `quietMs` stretch within `slackMs` of the target length, so no
 * word is cut in two. Audio shorter than the target plus its slack is one chunk.
 */
export function planChunks(
  loudness: Float32Array,
  durationMs: number,
  options: ChunkPlanOptions = {},
): ChunkSpan[] {
  const targetMs = options.targetMs ?? 180_000;
  const slackMs = Math.min(options.slackMs ?? 45_000, targetMs / 2);
  const quietFrames = Math.max(1, Math.round((options.quietMs ?? 400) / FRAME_MS));
  const spans: ChunkSpan[] = [];
  let startMs = 0;
  while (durationMs - startMs > targetMs + slackMs) {
    const from = Math.floor((startMs + targetMs - slackMs) / FRAME_MS);
    const to = Math.min(
      loudness.length - quietFrames,
      Math.floor((startMs + targetMs + slackMs) / FRAME_MS),
    );
    const cutMs =
      to > from ? quietestCentre(loudness, from, to, quietFrames) * FRAME_MS : startMs + targetMs;
    spans.push({ startMs, endMs: cutMs });
    startMs = cutMs;
  }
  spans.push({ startMs, endMs: durationMs });
  return spans;
}

/** The centre frame of the quietest window of `width` frames starting in [from, to]. */
function quietestCentre(loudness: Float32Array, from: number, to: number, width: number): number {
  let sum = 0;
  for (let i = from; i < from + width; i++) sum += loudness[i] ?? 0;
  let best = sum;
  let bestStart = from;
  for (let start = from + 1; start <= to; start++) {
    sum += (loudness[start + width - 1] ?? 0) - (loudness[start - 1] ?? 0);
    if (sum < best) {
      best = sum;
      bestStart = start;
    }
  }
  return bestStart + Math.floor(width / 2);
}

/**
 * The chunks' transcripts as one, in order, on the whole file's clock: every word moved by its
 * chunk's start and kept inside its chunk, so words stay in order and never overlap. Every field
 * of a word (confidence, Whisper's probability) is kept.
 */
export function mergeChunkTranscripts(
  chunks: readonly { span: ChunkSpan; transcript: Transcript }[],
  language: string,
  durationMs: number,
): Transcript {
  const segments: TranscriptSegment[] = [];
  let previousEnd = 0;
  for (const { span, transcript } of [...chunks].sort((a, b) => a.span.startMs - b.span.startMs)) {
    for (const segment of transcript.segments) {
      const words = [];
      for (const word of segment.words) {
        const startMs = Math.max(previousEnd, span.startMs + word.startMs);
        const endMs = Math.min(span.endMs, durationMs, span.startMs + word.endMs);
        if (endMs <= startMs) continue;
        words.push({ ...word, startMs, endMs });
        previousEnd = endMs;
      }
      const shiftedStart = Math.min(span.endMs, span.startMs + segment.startMs);
      const shiftedEnd = Math.min(span.endMs, span.startMs + segment.endMs);
      if (!words.length && !segment.text.trim()) continue;
      segments.push({
        ...segment,
        startMs: Math.min(shiftedStart, words[0]?.startMs ?? shiftedStart),
        endMs: Math.max(shiftedEnd, words.at(-1)?.endMs ?? shiftedEnd),
        words,
      });
    }
  }
  const engines = [...new Set(chunks.map((chunk) => chunk.transcript.engine).filter(Boolean))];
  return {
    language,
    durationMs,
    segments,
    ...(engines.length ? { engine: engines.join('+') } : {}),
  };
}
