import { FasterWhisperEngine, fasterWhisperOptionsFromEnv } from './faster-whisper';
import { OpenAICompatibleEngine } from './openai-compatible';
import type { SpeechEngine } from './types';
import { withWrittenWordsEngine } from './written-words';

/**
 * design.md: faster-whisper on the CPU by default; any OpenAI-compatible endpoint when ASR_BASE_URL
 * is set (then ASR_API_KEY and ASR_MODEL describe that endpoint). Either way the words come back
 * whole ("ill-disposed", not "ill" "-disposed": written-words.ts).
 */
export function createSpeechEngine(
  env: Record<string, string | undefined> = process.env,
): SpeechEngine {
  const baseUrl = env.ASR_BASE_URL?.trim();
  if (baseUrl) {
    return withWrittenWordsEngine(
      new OpenAICompatibleEngine({
        baseUrl,
        apiKey: env.ASR_API_KEY?.trim() || undefined,
        model: env.ASR_MODEL?.trim() || undefined,
      }),
    );
  }
  return withWrittenWordsEngine(new FasterWhisperEngine(fasterWhisperOptionsFromEnv(env)));
}
