/** A word with its timing, in integer milliseconds from the start of the audio. */
export interface TranscriptWord {
  text: string;
  startMs: number;
  endMs: number;
  /**
   * 0..1, the engine's per-word probability (faster-whisper's `probability`, kept in the stored
   * transcript); 1 when the engine reports none (most OpenAI-compatible servers). Titles and key
   * points avoid words below LOW_CONFIDENCE (packages/ai/src/language/confidence.ts).
   */
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
  /** The engine and model that heard it (e.g. "faster-whisper:whisper-tiny-en"), when known. */
  engine?: string;
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
  /** How many files it transcribes at once (its model processes); 1 when absent. */
  readonly parallelism?: number;
  transcribe(audioFile: string, opts?: TranscribeOptions): Promise<Transcript>;
  /**
   * The language of the first speech in the file (ISO 639-1), where the engine can tell it apart
   * from transcribing: a long input is detected once, then its chunks are transcribed in it.
   */
  detectLanguage?(audioFile: string, opts?: { signal?: AbortSignal }): Promise<string>;
  /**
   * Starts the model processes and loads the main model without waiting (a task about to be
   * heard), so the first request does not pay the start-up; a no-op once they run.
   */
  warm?(): void;
  /**
   * Stops the model processes no request is using (a long transcription ended and the analysis
   * after it needs the memory); the next request starts them again.
   */
  releaseIdle?(): void;
  /** Stops what the engine keeps running (its model processes). */
  close?(): void;
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
