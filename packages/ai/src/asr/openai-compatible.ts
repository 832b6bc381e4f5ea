import { openAsBlob } from 'node:fs';
import { basename, resolve } from 'node:path';
import { probeAudioDurationMs } from './audio-duration';
import { toLanguageCode } from './languages';
import type { SpeechEngine, TranscribeOptions, Transcript } from './types';
import { SpeechRecognitionError } from './types';
import { buildTranscript, type RawSegment, type RawWord } from './word-timing';

export interface OpenAICompatibleOptions {
  /** e.g. "https://api.openai.com/v1" or "http://gpu-box:8000/v1" (env ASR_BASE_URL). */
  baseUrl: string;
  /** Sent as a Bearer token when set (env ASR_API_KEY). */
  apiKey?: string;
  /** Model name the server knows (env ASR_MODEL; default "whisper-1"). */
  model?: string;
}

/** The parts of OpenAI's verbose_json transcription answer we read; servers vary in the rest. */
interface VerboseJson {
  language?: string;
  duration?: number;
  text?: string;
  segments?: { start: number; end: number; text: string; words?: ApiWord[] }[];
  words?: ApiWord[];
}

interface ApiWord {
  word: string;
  start: number;
  end: number;
  probability?: number;
}

/**
 * Any OpenAI-compatible transcription endpoint (OpenAI, faster-whisper servers, vLLM, LocalAI...):
 * POST {baseUrl}/audio/transcriptions with word and segment timestamps.
 */
export class OpenAICompatibleEngine implements SpeechEngine {
  readonly name: string;
  private readonly endpoint: string;

  constructor(private readonly options: OpenAICompatibleOptions) {
    this.endpoint = `${options.baseUrl.replace(/\/+$/, '')}/audio/transcriptions`;
    this.name = `openai-compatible:${options.model ?? 'whisper-1'}`;
  }

  async transcribe(audioFile: string, opts: TranscribeOptions = {}): Promise<Transcript> {
    const { signal, onProgress, timeoutMs } = opts;
    signal?.throwIfAborted();
    const requestedLanguage = opts.language ? toLanguageCode(opts.language) : undefined;
    if (opts.language && !requestedLanguage) {
      throw new SpeechRecognitionError(`unsupported language "${opts.language}"`, 'bad_input');
    }
    const input = resolve(audioFile);
    const durationMs = await probeAudioDurationMs(input, signal);
    onProgress?.(0);

    const form = new FormData();
    form.append('file', await openAsBlob(input), basename(input));
    form.append('model', this.options.model ?? 'whisper-1');
    form.append('response_format', 'verbose_json');
    form.append('timestamp_granularities[]', 'word');
    form.append('timestamp_granularities[]', 'segment');
    if (requestedLanguage) form.append('language', requestedLanguage);

    const signals = [signal, timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined].filter(
      (s): s is AbortSignal => s !== undefined,
    );
    let response: Response;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        body: form,
        headers: this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {},
        signal: signals.length > 0 ? AbortSignal.any(signals) : undefined,
      });
    } catch (error) {
      throw requestError(error, signal, timeoutMs, this.endpoint);
    }
    if (!response.ok) {
      // An unreadable body: the status alone names the failure.
      const body = (await response.text().catch(() => '')).slice(0, 1000);
      throw new SpeechRecognitionError(
        `transcription endpoint answered ${response.status} ${response.statusText}: ${body}`,
        'engine_failed',
      );
    }
    const json = (await response.json()) as VerboseJson;
    const language = (json.language && toLanguageCode(json.language)) || requestedLanguage || 'und';
    const transcript = buildTranscript(language, durationMs, toRawSegments(json));
    onProgress?.(1);
    return transcript;
  }
}

/**
 * OpenAI returns words at the top level, apart from the segments; each word goes to the segment
 * whose span holds its midpoint (or the nearest one), so captions keep the segment grouping.
 */
function toRawSegments(json: VerboseJson): RawSegment[] {
  const toRawWord = (w: ApiWord): RawWord => ({
    text: w.word,
    start: w.start,
    end: w.end,
    confidence: w.probability,
  });
  const segments: RawSegment[] = (json.segments ?? []).map((s) => ({
    start: s.start,
    end: s.end,
    text: s.text,
    words: (s.words ?? []).map(toRawWord),
  }));
  const topLevelWords = json.words ?? [];
  if (segments.some((s) => s.words.length > 0) || topLevelWords.length === 0) return segments;
  if (segments.length === 0) {
    const first = topLevelWords[0]!;
    const last = topLevelWords[topLevelWords.length - 1]!;
    return [
      {
        start: first.start,
        end: last.end,
        text: json.text ?? '',
        words: topLevelWords.map(toRawWord),
      },
    ];
  }
  for (const word of topLevelWords) {
    const middle = (word.start + word.end) / 2;
    let best = segments[0]!;
    let bestDistance = Infinity;
    for (const segment of segments) {
      const distance =
        middle < segment.start
          ? segment.start - middle
          : middle > segment.end
            ? middle - segment.end
            : 0;
      if (distance < bestDistance) {
        best = segment;
        bestDistance = distance;
      }
    }
    best.words.push(toRawWord(word));
  }
  return segments;
}

function requestError(
  error: unknown,
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
  url: string,
) {
  if (signal?.aborted)
    return new SpeechRecognitionError('transcription aborted', 'aborted', { cause: error });
  if ((error as Error).name === 'TimeoutError') {
    return new SpeechRecognitionError(`transcription took longer than ${timeoutMs} ms`, 'timeout', {
      cause: error,
    });
  }
  return new SpeechRecognitionError(
    `cannot reach ${url}: ${(error as Error).message}`,
    'engine_failed',
    {
      cause: error,
    },
  );
}
