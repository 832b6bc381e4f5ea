/**
 * The stored transcript (a task's `transcripts` row: ms times, one JSON array of segments) and the
 * mappings every reader needs, kept once (issue 14 #12: five hand-written copies cast the JSON
 * blindly). Pure: no database, no I/O.
 */
import type { Transcript as ApiTranscript } from '@moments/contract';

export interface StoredWord {
  text: string;
  startMs: number;
  endMs: number;
  /** 0..1; 1 when the engine reported none. */
  confidence: number;
}

export interface StoredSegment {
  startMs: number;
  endMs: number;
  text: string;
  words: StoredWord[];
}

export interface StoredTranscript {
  language: string;
  durationMs: number;
  segments: StoredSegment[];
}

const isNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/**
 * The segments of a stored row's JSON, with malformed entries (from an older or damaged row)
 * left out rather than passed on as undefined times.
 */
export function storedSegments(json: unknown): StoredSegment[] {
  if (!Array.isArray(json)) return [];
  const segments: StoredSegment[] = [];
  for (const entry of json as Array<Record<string, unknown>>) {
    if (!entry || !isNumber(entry.startMs) || !isNumber(entry.endMs)) continue;
    const words = Array.isArray(entry.words) ? (entry.words as Array<Record<string, unknown>>) : [];
    segments.push({
      startMs: entry.startMs,
      endMs: entry.endMs,
      text: typeof entry.text === 'string' ? entry.text : '',
      words: words
        .filter((word) => word && isNumber(word.startMs) && isNumber(word.endMs))
        .map((word) => ({
          text: typeof word.text === 'string' ? word.text : '',
          startMs: word.startMs as number,
          endMs: word.endMs as number,
          confidence: isNumber(word.confidence) ? word.confidence : 1,
        })),
    });
  }
  return segments;
}

/** A transcript row as the analysis and export code read it. */
export function storedTranscript(row: {
  language: string;
  durationMs: number;
  segments: unknown;
}): StoredTranscript {
  return {
    language: row.language,
    durationMs: row.durationMs,
    segments: storedSegments(row.segments),
  };
}

/** The API's transcript (spec §7 task transcript): `start`/`end` in ms. */
export function toApiTranscript(taskId: string, transcript: StoredTranscript): ApiTranscript {
  return {
    task_id: taskId,
    language: transcript.language,
    duration_ms: transcript.durationMs,
    segments: transcript.segments.map((segment) => ({
      start: segment.startMs,
      end: segment.endMs,
      text: segment.text,
      words: segment.words.map((word) => ({
        text: word.text,
        start: word.startMs,
        end: word.endMs,
        confidence: word.confidence,
      })),
    })),
  };
}

/** Every word of the transcript, in time order. */
export function transcriptWords(
  segments: readonly { words: readonly { text: string; startMs: number; endMs: number }[] }[],
): { text: string; startMs: number; endMs: number }[] {
  return segments
    .flatMap((segment) => segment.words)
    .map((word) => ({ text: word.text, startMs: word.startMs, endMs: word.endMs }))
    .sort((a, b) => a.startMs - b.startMs);
}
