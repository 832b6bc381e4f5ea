import { z } from 'zod';
import { createLlmClient, parseJsonReply, type LlmClient } from '../llm/index';

/** Translates caption lines one to one (same count, same order), or fails: never made-up output. */
export interface Translator {
  /** What translates (e.g. `llm:gpt-4o-mini`), or null when nothing is configured. */
  readonly engine?: string | null;
  translateLines(
    lines: readonly { text: string }[],
    from: string,
    to: string,
    options?: { signal?: AbortSignal },
  ): Promise<string[]>;
}

export class TranslationUnavailableError extends Error {
  readonly code = 'TRANSLATION_UNAVAILABLE';
  constructor(
    message = 'Translation needs an LLM: set LLM_BASE_URL and LLM_MODEL (any OpenAI-compatible endpoint).',
  ) {
    super(message);
    this.name = 'TranslationUnavailableError';
  }
}

export class TranslationFailedError extends Error {
  readonly code = 'TRANSLATION_FAILED';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TranslationFailedError';
  }
}

const replySchema = z.object({ translations: z.array(z.string()) });
const LINES_PER_REQUEST = 40;

function sameLanguage(from: string, to: string): boolean {
  const base = (code: string) => code.trim().toLowerCase().split(/[-_]/)[0];
  return base(from) === base(to);
}

/** Translation through the configured LLM, in batches of numbered lines checked for count and shape. */
export class LlmTranslator implements Translator {
  readonly engine: string;

  constructor(
    private readonly llm: LlmClient,
    private readonly options: { timeoutMs?: number; name?: string } = {},
  ) {
    this.engine = `llm:${options.name ?? 'configured endpoint'}`;
  }

  async translateLines(
    lines: readonly { text: string }[],
    from: string,
    to: string,
    options: { signal?: AbortSignal } = {},
  ) {
    if (sameLanguage(from, to)) return lines.map((line) => line.text);
    const result: string[] = [];
    for (let offset = 0; offset < lines.length; offset += LINES_PER_REQUEST) {
      const batch = lines.slice(offset, offset + LINES_PER_REQUEST).map((line) => line.text);
      result.push(...(await this.translateBatch(batch, from, to, options.signal)));
    }
    return result;
  }

  private async translateBatch(
    texts: string[],
    from: string,
    to: string,
    signal?: AbortSignal,
  ): Promise<string[]> {
    let lastError: unknown;
    // One retry: models occasionally merge or drop a line; a second miss is a failure, not a guess.
    for (let attempt = 0; attempt < 2; attempt++) {
      signal?.throwIfAborted();
      try {
        const reply = await this.llm.complete(
          [
            {
              role: 'system',
              content:
                'You translate video captions. Translate each line separately, keep the meaning and tone, and do not merge, split, add or drop lines.',
            },
            {
              role: 'user',
              content:
                `Translate these ${texts.length} caption lines from ${from} to ${to}. ` +
                `Reply with JSON {"translations":[...]} holding exactly ${texts.length} strings in the same order.\n` +
                JSON.stringify({ lines: texts }),
            },
          ],
          { json: true, signal, timeoutMs: this.options.timeoutMs },
        );
        const { translations } = replySchema.parse(parseJsonReply(reply));
        if (translations.length !== texts.length) {
          throw new Error(`expected ${texts.length} lines, got ${translations.length}`);
        }
        if (translations.some((line, i) => !line.trim() && (texts[i] ?? '').trim()))
          throw new Error('an empty translated line');
        return translations;
      } catch (error) {
        if (signal?.aborted) throw error;
        lastError = error;
      }
    }
    throw new TranslationFailedError(
      `Translation from ${from} to ${to} failed: ${(lastError as Error).message}`,
      {
        cause: lastError,
      },
    );
  }
}

/** The LLM-backed translator when an LLM is configured; otherwise one that refuses with TRANSLATION_UNAVAILABLE. */
export function createTranslator(env: NodeJS.ProcessEnv = process.env): Translator {
  return translatorFor(createLlmClient(env), env.LLM_MODEL);
}

/** Translation through the given LLM; without one, a translator that refuses with TRANSLATION_UNAVAILABLE. */
export function translatorFor(llm: LlmClient | undefined, name?: string): Translator {
  if (llm) return new LlmTranslator(llm, { name });
  return {
    engine: null,
    async translateLines(lines, from, to) {
      if (sameLanguage(from, to)) return lines.map((line) => line.text);
      throw new TranslationUnavailableError();
    },
  };
}
