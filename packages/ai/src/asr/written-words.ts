/**
 * Word post-processing applied to every engine's output, kept out of the engines so any
 * runner (the CLI, a long-lived process, an HTTP endpoint) gets the same written words: hyphenated
 * compounds and contractions that the engine returned as two tokens become one word, with the
 * span of both parts and the lower of their probabilities (`confidence`).
 */
import { joinSplitWords } from '@moments/domain/transcript';
import type { SpeechEngine, TranscribeOptions, Transcript } from './types';

/** The transcript with each segment's words joined into whole written words. */
export function withWrittenWords(transcript: Transcript): Transcript {
  return {
    ...transcript,
    segments: transcript.segments.map((segment) => ({
      ...segment,
      words: joinSplitWords(segment.words),
    })),
  };
}

/** An engine whose transcripts come back with whole written words. */
export function withWrittenWordsEngine(engine: SpeechEngine): SpeechEngine {
  return {
    name: engine.name,
    // What the chunked transcription needs of the engine passes through.
    parallelism: engine.parallelism,
    ...(engine.detectLanguage && {
      detectLanguage: (file, opts) => engine.detectLanguage!(file, opts),
    }),
    ...(engine.warm && { warm: () => engine.warm!() }),
    ...(engine.releaseIdle && { releaseIdle: () => engine.releaseIdle!() }),
    ...(engine.close && { close: () => engine.close!() }),
    async transcribe(audioFile: string, opts?: TranscribeOptions): Promise<Transcript> {
      return withWrittenWords(await engine.transcribe(audioFile, opts));
    },
  };
}
