import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startOpenAIStubServer,
  type ChatRequest,
  type StubServer,
} from '../llm/testing/openai-stub-server';
import { createTranslator, TranslationFailedError, TranslationUnavailableError } from './index';

function linesIn(request: ChatRequest): string[] {
  const prompt = request.messages.at(-1)?.content ?? '';
  return (JSON.parse(prompt.split('\n').at(-1) ?? '{}') as { lines: string[] }).lines;
}

describe('createTranslator', () => {
  let server: StubServer;
  beforeAll(async () => {
    server = await startOpenAIStubServer({ kind: 'status', status: 500, body: 'unset' });
  });
  afterAll(() => server.close());

  it('refuses clearly when no LLM is configured, instead of making output up', async () => {
    const translator = createTranslator({});
    const error = await translator
      .translateLines([{ text: 'Hello' }], 'en', 'de')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TranslationUnavailableError);
    expect((error as TranslationUnavailableError).code).toBe('TRANSLATION_UNAVAILABLE');
    expect(await translator.translateLines([{ text: 'Hello' }], 'en', 'en-US')).toEqual(['Hello']);
  });

  it('translates through the LLM in order, in batches', async () => {
    // The stand-in service "translates" by tagging each line, so order and count are checkable.
    server.setBehaviour({
      kind: 'reply',
      content: (request) =>
        JSON.stringify({ translations: linesIn(request).map((line) => `[de] ${line}`) }),
    });
    const lines = Array.from({ length: 95 }, (_, i) => ({ text: `Line number ${i}` }));
    const before = server.requests.length;
    const translated = await createTranslator({
      LLM_BASE_URL: server.baseUrl,
      LLM_MODEL: 'm',
    }).translateLines(lines, 'en', 'de');
    expect(translated).toEqual(lines.map((line) => `[de] ${line.text}`));
    expect(server.requests.length - before).toBe(3);
    expect(server.requests.at(-1)!.messages.at(-1)!.content).toContain('from en to de');
  });

  it('fails with TRANSLATION_FAILED when the LLM drops lines or answers garbage', async () => {
    const translator = createTranslator({ LLM_BASE_URL: server.baseUrl, LLM_MODEL: 'm' });
    server.setBehaviour({
      kind: 'reply',
      content: (request) => JSON.stringify({ translations: linesIn(request).slice(1) }),
    });
    await expect(
      translator.translateLines([{ text: 'a' }, { text: 'b' }], 'en', 'fr'),
    ).rejects.toBeInstanceOf(TranslationFailedError);
    server.setBehaviour({ kind: 'reply', content: () => 'Bonjour!' });
    await expect(translator.translateLines([{ text: 'Hello' }], 'en', 'fr')).rejects.toMatchObject({
      code: 'TRANSLATION_FAILED',
    });
  });
});
