// Speech recognition behind one narrow interface (style.md: providers chosen by configuration).
export type {
  SpeechEngine,
  Transcript,
  TranscriptSegment,
  TranscriptWord,
  TranscribeOptions,
} from './types';
export { SpeechRecognitionError } from './types';
export { createSpeechEngine } from './create';
export { withWrittenWords, withWrittenWordsEngine } from './written-words';
export {
  FasterWhisperEngine,
  fasterWhisperAvailability,
  cudaAvailability,
  fasterWhisperOptionsFromEnv,
  DEFAULT_MODEL_DIR,
  DEFAULT_ENGLISH_MODEL_DIR,
  type FasterWhisperOptions,
} from './faster-whisper';
export { OpenAICompatibleEngine, type OpenAICompatibleOptions } from './openai-compatible';
export { WHISPER_LANGUAGES, toLanguageCode } from './languages';
export { WhisperServer, WhisperServerPool } from './whisper-server';
export {
  planChunks,
  chunkPlanFor,
  mergeChunkTranscripts,
  type ChunkSpan,
  type ChunkPlanOptions,
} from './chunks';
export { frameLoudness } from './speech-onsets';
