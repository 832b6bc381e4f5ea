/**
 * A local GGUF model run in process with node-llama-cpp on the CPU, shared by the benches that
 * measure one (translation and the clip judge). node-llama-cpp is not a dependency
 * of the project: the benches use it where it is installed, or load it from the path of its
 * dist/index.js named by their environment.
 */
import { availableParallelism } from 'node:os';
import { basename } from 'node:path';
import { LlmError, type LlmClient, type LlmMessage } from '../packages/ai/src/llm/index';

/** The little of node-llama-cpp's API that is used here (its types are not installed with the project). */
interface LlamaCppModule {
  getLlama(options: object): Promise<{
    loadModel(options: { modelPath: string }): Promise<{
      createContext(options?: object): Promise<{
        getSequence(): { clearHistory(): Promise<void> };
        dispose(): Promise<void>;
      }>;
      dispose(): Promise<void>;
    }>;
    createGrammarForJsonSchema(schema: object): Promise<object>;
  }>;
  LlamaChatSession: new (options: {
    contextSequence: unknown;
    systemPrompt?: string;
    autoDisposeSequence?: boolean;
  }) => {
    prompt(text: string, options?: object): Promise<string>;
    setChatHistory(history: object[]): void;
    dispose?(): void;
  };
}

/**
 * The LLM judge's reply schema (packages/ai/src/moments/judge.ts `judgementSchema`) as a grammar
 * for node-llama-cpp, which makes every listed property required and knows no number bounds (the
 * score is therefore one of the integers 0..100). The string and list bounds are the prompt's
 * ("title max 70 chars", "1-2 sentences", at most the 10 moments asked for, the 6 hashtags kept),
 * tighter than the schema's so that a whole reply fits the token cap: this model fills every string
 * to its bound, and at the schema's 500-character descriptions a 600-token cap cut every reply short.
 * Every reply the grammar allows passes the judge's schema.
 */
export const JUDGEMENT_JSON_SCHEMA = {
  type: 'object',
  properties: {
    moments: {
      type: 'array',
      minItems: 1,
      maxItems: 10,
      items: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          score: { enum: Array.from({ length: 101 }, (_, score) => score) },
          title: { type: 'string', minLength: 1, maxLength: 70 },
          description: { type: 'string', maxLength: 300 },
          hashtags: { type: 'array', maxItems: 6, items: { type: 'string', maxLength: 30 } },
          reason: { type: 'string', maxLength: 200 },
        },
      },
    },
  },
};

/**
 * The summary writer's reply schema (packages/ai/src/summary/summarise.ts `LlmSummary`) as a
 * grammar, with bounds tighter than the schema's for the same reason: the reply must fit the token
 * cap (an overview, one short title and summary per chapter, 3 to 8 key points citing a sentence).
 */
export const SUMMARY_JSON_SCHEMA = {
  type: 'object',
  properties: {
    overview: { type: 'string', minLength: 1, maxLength: 500 },
    chapters: {
      type: 'array',
      minItems: 1,
      maxItems: 20,
      items: {
        type: 'object',
        properties: {
          title: { type: 'string', minLength: 1, maxLength: 60 },
          summary: { type: 'string', minLength: 1, maxLength: 200 },
        },
      },
    },
    key_points: {
      type: 'array',
      minItems: 3,
      maxItems: 8,
      items: {
        type: 'object',
        properties: {
          text: { type: 'string', minLength: 1, maxLength: 160 },
          sentence: { type: 'integer' },
        },
      },
    },
  },
};

export interface LocalGgufOptions {
  modelPath: string;
  /** `node-llama-cpp`, or the path of its dist/index.js when it is installed outside this checkout. */
  moduleName?: string;
  /** CPU threads; default one per core. */
  threads?: number;
  contextSize: number;
}

export interface LocalChatOptions {
  maxTokens: number;
  /** A JSON schema (node-llama-cpp's subset) the reply is constrained to, by grammar. */
  jsonSchema?: object;
  signal?: AbortSignal;
}

export interface LocalGguf {
  /** e.g. `model.gguf (node-llama-cpp, CPU, 2 threads)`. */
  label: string;
  /** One fresh chat on the one context sequence (earlier chats cleared), at temperature 0. */
  chat(messages: LlmMessage[], options: LocalChatOptions): Promise<string>;
  close(): Promise<void>;
}

export async function loadLocalGguf(options: LocalGgufOptions): Promise<LocalGguf> {
  const llamaCpp = (await import(options.moduleName ?? 'node-llama-cpp')) as LlamaCppModule;
  // node-llama-cpp's CPU default is at least 4 threads, which on a 2-core machine oversubscribes
  // the cores and makes llama.cpp's spinning threads crawl (a sentence took minutes, not seconds):
  // one thread per core unless told otherwise (1 when the machine is busy with other work).
  const threads = options.threads || availableParallelism();
  const llama = await llamaCpp.getLlama({ gpu: false, build: 'never', maxThreads: threads });
  const model = await llama.loadModel({ modelPath: options.modelPath });
  const context = await model.createContext({ contextSize: options.contextSize });
  const sequence = context.getSequence();
  const grammars = new Map<object, Promise<object>>();
  return {
    label: `${basename(options.modelPath)} (node-llama-cpp, CPU, ${threads} threads)`,
    async chat(messages, { maxTokens, jsonSchema, signal }) {
      const system = messages
        .filter((message) => message.role === 'system')
        .map((message) => message.content)
        .join('\n\n');
      const turns = messages.filter((message) => message.role !== 'system');
      const last = turns.pop();
      if (last?.role !== 'user')
        throw new Error('the last message of a chat must be from the user');
      let grammar: object | undefined;
      if (jsonSchema) {
        if (!grammars.has(jsonSchema))
          grammars.set(jsonSchema, llama.createGrammarForJsonSchema(jsonSchema));
        grammar = await grammars.get(jsonSchema);
      }
      // A fresh chat on the one sequence: nothing of an earlier call leaks into this one.
      await sequence.clearHistory();
      const session = new llamaCpp.LlamaChatSession({
        contextSequence: sequence,
        systemPrompt: system || undefined,
        autoDisposeSequence: false,
      });
      try {
        if (turns.length)
          session.setChatHistory([
            ...(system ? [{ type: 'system', text: system }] : []),
            ...turns.map((turn) =>
              turn.role === 'user'
                ? { type: 'user', text: turn.content }
                : { type: 'model', response: [turn.content] },
            ),
          ]);
        return await session.prompt(last.content, { temperature: 0, maxTokens, grammar, signal });
      } finally {
        session.dispose?.();
      }
    },
    async close() {
      await context.dispose();
      await model.dispose();
    },
  };
}

/**
 * The product's LlmClient over a local model: `json` replies are constrained to `jsonSchema`
 * (the reply schema of the one caller the client is made for).
 */
export function localGgufLlm(
  gguf: LocalGguf,
  options: { maxTokens: number; jsonSchema?: object; timeoutMs?: number },
): LlmClient {
  return {
    async complete(messages, { json, signal, timeoutMs } = {}) {
      const limitMs = timeoutMs ?? options.timeoutMs ?? 60_000;
      const timeout = AbortSignal.timeout(limitMs);
      try {
        return await gguf.chat(messages, {
          maxTokens: options.maxTokens,
          jsonSchema: json ? options.jsonSchema : undefined,
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (error) {
        if (signal?.aborted) throw new LlmError('LLM_ABORTED', 'aborted', { cause: error });
        if (timeout.aborted)
          throw new LlmError('LLM_TIMEOUT', `LLM did not answer within ${limitMs} ms`, {
            cause: error,
          });
        throw error;
      }
    },
  };
}
