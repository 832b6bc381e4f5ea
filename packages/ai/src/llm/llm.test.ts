import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlmClient, LlmError, OpenAICompatibleLlm, parseJsonReply } from './index';
import { startOpenAIStubServer, type StubServer } from './testing/openai-stub-server';

describe('OpenAI-compatible LLM client', () => {
  let server: StubServer;
  beforeAll(async () => {
    server = await startOpenAIStubServer({
      kind: 'reply',
      content: (request) => `echo: ${request.messages.at(-1)?.content}`,
    });
  });
  afterAll(() => server.close());

  it('is not configured without a base URL and a model', () => {
    expect(createLlmClient({})).toBeUndefined();
    expect(createLlmClient({ LLM_BASE_URL: server.baseUrl })).toBeUndefined();
    expect(createLlmClient({ LLM_BASE_URL: server.baseUrl, LLM_MODEL: 'm' })).toBeInstanceOf(
      OpenAICompatibleLlm,
    );
  });

  it('posts the messages to /chat/completions and returns the reply text', async () => {
    const llm = createLlmClient({ LLM_BASE_URL: `${server.baseUrl}/`, LLM_MODEL: 'local-model' })!;
    const reply = await llm.complete([{ role: 'user', content: 'hello' }]);
    expect(reply).toBe('echo: hello');
    const request = server.requests.at(-1)!;
    expect(request).toMatchObject({
      model: 'local-model',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(request.authorization).toBeUndefined();
    expect(request.response_format).toBeUndefined();
  });

  it('reports HTTP errors, malformed replies and timeouts with their own codes', async () => {
    const llm = new OpenAICompatibleLlm({ baseUrl: server.baseUrl, model: 'm' });
    server.setBehaviour({ kind: 'status', status: 503, body: 'overloaded' });
    await expect(llm.complete([{ role: 'user', content: 'x' }])).rejects.toMatchObject({
      code: 'LLM_HTTP_ERROR',
    });
    server.setBehaviour({ kind: 'raw', body: '{"choices":[]}' });
    await expect(llm.complete([{ role: 'user', content: 'x' }])).rejects.toMatchObject({
      code: 'LLM_BAD_RESPONSE',
    });
    server.setBehaviour({ kind: 'hang' });
    const error = await llm
      .complete([{ role: 'user', content: 'x' }], { timeoutMs: 300 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).code).toBe('LLM_TIMEOUT');
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 100);
    await expect(
      llm.complete([{ role: 'user', content: 'x' }], { signal: cancel.signal }),
    ).rejects.toMatchObject({
      code: 'LLM_ABORTED',
    });
  });

  it('reads JSON replies even inside a Markdown fence', () => {
    expect(parseJsonReply('```json\n{"a":1}\n```')).toEqual({ a: 1 });
    expect(parseJsonReply(' {"a":2} ')).toEqual({ a: 2 });
  });
});
