/**
 * The stored transcript (a task's `transcripts` row: ms times, one JSON array of segments) and the
 * mappings every reader needs, kept once (five hand-written copies cast the JSON
 * blindly). Pure: no database, no I/O.
 */
import type { Transcript as ApiTranscript } from '@moments/contract';
import { joinSplitWords } from './joined-words.js';

export { joinSplitWords, type JoinableWord } from './joined-words.js';

export interface StoredWord {
  text: string;
  startMs: number;
  endMs: number;
  /** 0..1, the engine's own per-word probability (Whisper's `probability`); 1 when it reported none. */
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
 * left out rather than passed on as undefined times. Rows stored before words were joined may hold
 * hyphenated compounds split in two ("ill", "-disposed"); they are read back joined.
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
      words: joinSplitWords(
        words
          .filter((word) => word && isNumber(word.startMs) && isNumber(word.endMs))
          .map((word) => ({
            text: typeof word.text === 'string' ? word.text : '',
            startMs: word.startMs as number,
            endMs: word.endMs as number,
            confidence: isNumber(word.confidence) ? word.confidence : 1,
          })),
      ),
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

/** The API's transcript (the task transcript call): `start`/`end` in ms. */
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

/**
 * Where the last speech heard ends, in ms (0 for silence): the last word's end, or the end of a
 * segment an engine gave text without word times for.
 */
export function speechEndMs(
  segments: readonly { endMs: number; text: string; words: readonly { endMs: number }[] }[],
): number {
  let end = 0;
  for (const segment of segments) {
    if (segment.words.length === 0 && segment.text.trim()) end = Math.max(end, segment.endMs);
    for (const word of segment.words) end = Math.max(end, word.endMs);
  }
  return end;
}

/**
 * How far past a file's measured length its speech may seem to end and still be within it:
 * engines round word times, and the last word of a file may be stretched a little past the end.
 */
export const SPEECH_PAST_LENGTH_SLACK_MS = 2000;

/**
 * Whether a transcript proves its file longer than the length measured from its packets (and
 * priced): speech heard beyond the end, past the slack.
 */
export function heardPastLength(
  segments: readonly { endMs: number; text: string; words: readonly { endMs: number }[] }[],
  lengthMs: number,
): boolean {
  return speechEndMs(segments) > lengthMs + SPEECH_PAST_LENGTH_SLACK_MS;
}

/** A silence between words at least this long is a pause a picture may change on. */
const PAUSE_MS = 350;
const SENTENCE_END = /[.!?…。！？؟]["'”’»)\]]*$/u;

/**
 * Where the picture may change without cutting a sentence (layout switches land on
 * sentence ends or pauses): the middle of every pause between words, and the end of every
 * sentence, in time order.
 */
export function speechBreaks(
  segments: readonly { words: readonly { text: string; startMs: number; endMs: number }[] }[],
): number[] {
  const words = transcriptWords(segments);
  const breaks = new Set<number>();
  words.forEach((word, i) => {
    const next = words[i + 1];
    if (next && next.startMs - word.endMs >= PAUSE_MS) {
      breaks.add(Math.round((word.endMs + next.startMs) / 2));
    } else if (SENTENCE_END.test(word.text)) {
      breaks.add(next ? Math.round((word.endMs + next.startMs) / 2) : word.endMs);
    }
  });
  return [...breaks].sort((a, b) => a - b);
}
