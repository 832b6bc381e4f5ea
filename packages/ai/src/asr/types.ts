/** A word with its timing, in integer milliseconds from the start of the audio. */
export interface TranscriptWord {
  text: string;
  startMs: number;
  endMs: number;
  /** 0..1; 1 when the engine reports no confidence (most OpenAI-compatible servers). */
  confidence: number;
}

export interface TranscriptSegment {
  startMs: number;
  endMs: number;
  text: string;
  words: TranscriptWord[];
}

/**
 * What every speech engine returns. Guarantees (spec: word timings for every word, numbers and
 * symbols included): every word has 0 <= startMs < endMs <= durationMs, words do not overlap and
 * come in order, and all times are integers.
 */
export interface Transcript {
  /** ISO 639-1 code (Whisper's code where no 639-1 code exists, e.g. "haw", "yue"). */
  language: string;
  durationMs: number;
  segments: TranscriptSegment[];
}

export interface TranscribeOptions {
  /** ISO 639-1 code; undefined lets the engine detect the language. */
  language?: string;
  signal?: AbortSignal;
  /** Called with a fraction 0..1 of the audio transcribed so far; ends with 1 on success. */
  onProgress?: (fraction: number) => void;
  timeoutMs?: number;
  /** A folder of the caller's run for the engine's own files; default: the OS temp folder. */
  workDir?: string;
}

export interface SpeechEngine {
  readonly name: string;
  transcribe(audioFile: string, opts?: TranscribeOptions): Promise<Transcript>;
}

/** Thrown for every engine failure, with the tool's or server's own words in the message. */
export class SpeechRecognitionError extends Error {
  constructor(
    message: string,
    readonly code: 'aborted' | 'timeout' | 'engine_missing' | 'engine_failed' | 'bad_input',
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SpeechRecognitionError';
  }
}
