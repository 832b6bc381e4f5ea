/**
 * LLM adapter (design.md: "any OpenAI-compatible chat endpoint"). The interface is the narrowest thing the
 * callers need; the app works without one (deterministic moment scoring, no translation).
 */

export interface LlmMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface LlmCompleteOptions {
  /** Ask for a JSON object reply (OpenAI `response_format: json_object`). */
  json?: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface LlmClient {
  complete(messages: LlmMessage[], options?: LlmCompleteOptions): Promise<string>;
}

export type LlmErrorCode =
  'LLM_TIMEOUT' | 'LLM_ABORTED' | 'LLM_HTTP_ERROR' | 'LLM_NETWORK_ERROR' | 'LLM_BAD_RESPONSE';

export class LlmError extends Error {
  constructor(
    readonly code: LlmErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'LlmError';
  }
}

export interface OpenAICompatibleLlmOptions {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 (Ollama). */
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs?: number;
  temperature?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;

export class OpenAICompatibleLlm implements LlmClient {
  private readonly endpoint: string;

  constructor(private readonly options: OpenAICompatibleLlmOptions) {
    this.endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  }

  async complete(messages: LlmMessage[], options: LlmCompleteOptions = {}): Promise<string> {
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    const body = {
      model: this.options.model,
      messages,
      temperature: this.options.temperature ?? 0.2,
      ...(options.json ? { response_format: { type: 'json_object' } } : {}),
    };
    let response: Response;
    let text: string;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal,
      });
      text = await response.text();
    } catch (error) {
      if (timeout.aborted)
        throw new LlmError('LLM_TIMEOUT', `LLM did not answer within ${timeoutMs} ms`, {
          cause: error,
        });
      if (options.signal?.aborted)
        throw new LlmError('LLM_ABORTED', 'LLM request was cancelled', { cause: error });
      throw new LlmError('LLM_NETWORK_ERROR', `LLM request failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
    if (!response.ok) {
      throw new LlmError(
        'LLM_HTTP_ERROR',
        `LLM answered HTTP ${response.status}: ${text.slice(0, 200)}`,
      );
    }
    let content: unknown;
    try {
      const parsed = JSON.parse(text) as { choices?: { message?: { content?: unknown } }[] };
      content = parsed.choices?.[0]?.message?.content;
    } catch (error) {
      throw new LlmError('LLM_BAD_RESPONSE', `LLM reply is not JSON: ${text.slice(0, 200)}`, {
        cause: error,
      });
    }
    if (typeof content !== 'string')
      throw new LlmError('LLM_BAD_RESPONSE', 'LLM reply has no choices[0].message.content');
    return content;
  }
}

/** The configured LLM (LLM_BASE_URL, LLM_MODEL, optional LLM_API_KEY and LLM_TIMEOUT_MS), or undefined when none is. */
export function createLlmClient(env: NodeJS.ProcessEnv = process.env): LlmClient | undefined {
  const timeoutMs = Number(env.LLM_TIMEOUT_MS);
  return llmClientFor({
    baseUrl: env.LLM_BASE_URL,
    model: env.LLM_MODEL,
    apiKey: env.LLM_API_KEY,
    timeoutMs: Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : undefined,
  });
}

/** The client of an endpoint and model given by the caller's settings; none without both. */
export function llmClientFor(settings: {
  baseUrl?: string;
  model?: string;
  apiKey?: string;
  timeoutMs?: number;
}): LlmClient | undefined {
  const baseUrl = settings.baseUrl?.trim();
  const model = settings.model?.trim();
  if (!baseUrl || !model) return undefined;
  return new OpenAICompatibleLlm({
    baseUrl,
    model,
    apiKey: settings.apiKey?.trim() || undefined,
    timeoutMs: settings.timeoutMs,
  });
}

/** Parses a JSON reply, tolerating a Markdown code fence around it (some local models add one). */
export function parseJsonReply(reply: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(reply);
  return JSON.parse((fenced?.[1] ?? reply).trim());
}
