import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAICompatibleLlm } from '../llm/index';
import {
  startOpenAIStubServer,
  type ChatRequest,
  type StubServer,
} from '../llm/testing/openai-stub-server';
import { findViralMoments } from './index';
import type { Moment } from './types';
import { boundaryProblems, rankOfPlanted } from './testing/expectations';
import { PLANTED_CLAIM, PLANTED_CONFESSION, PLANTED_STORY } from './testing/planted';
import { buildSyntheticTranscript, type SyntheticTranscript } from './testing/synthetic-transcript';

/** Candidates the finder sent, read back from the prompt's JSON list. */
function candidatesIn(request: ChatRequest): { id: number; text: string }[] {
  const prompt = request.messages.find((message) => message.role === 'user')?.content ?? '';
  return JSON.parse(prompt.split('\n').at(-1) ?? '[]') as { id: number; text: string }[];
}

describe('findViralMoments with an LLM judge over the OpenAI chat API', () => {
  let server: StubServer;
  let synthetic: SyntheticTranscript;
  const llmFor = () =>
    new OpenAICompatibleLlm({ baseUrl: server.baseUrl, model: 'judge-model', apiKey: 'test-key' });

  beforeAll(async () => {
    server = await startOpenAIStubServer({ kind: 'status', status: 500, body: 'not configured' });
    synthetic = buildSyntheticTranscript({
      minutes: 20,
      seed: 4,
      plants: [
        { id: 'story', sentences: PLANTED_STORY, at: 0.2 },
        { id: 'claim', sentences: PLANTED_CLAIM, at: 0.5 },
        { id: 'confession', sentences: PLANTED_CONFESSION, at: 0.8 },
      ],
    });
  });
  afterAll(() => server.close());

  it('lets the LLM judge and title the top candidates', async () => {
    // The stand-in service prefers the candidate that mentions money and titles each one by its id.
    server.setBehaviour({
      kind: 'reply',
      content: (request) =>
        JSON.stringify({
          moments: candidatesIn(request).map((candidate) => ({
            id: candidate.id,
            score: candidate.text.includes('dollars') ? 97 : 40,
            title: `Judged clip ${candidate.id}`,
            description: 'Chosen by the judge.',
            hashtags: ['money tips', '#Clips'],
            reason: candidate.text.includes('dollars') ? 'Numbers that surprise' : 'Fine',
          })),
        }),
    });
    const result = await findViralMoments(synthetic.transcript, {
      llm: llmFor(),
      actAs: 'a personal finance fan',
      maxMoments: 5,
    });
    expect(result.method).toBe('llm');
    expect(result.moments).toHaveLength(5);
    expect(boundaryProblems(result.moments, synthetic)).toEqual([]);
    const [best] = result.moments;
    expect(rankOfPlanted([best!], synthetic.planted.get('claim')!)).toBe(0);
    expect(best!.title).toMatch(/^Judged clip \d+$/);
    expect(best!.hashtags).toEqual(['#moneytips', '#Clips']);
    expect(best!.reasons[0]).toMatchObject({ kind: 'judge', detail: 'Numbers that surprise' });
    const request = server.requests.at(-1)!;
    expect(request.model).toBe('judge-model');
    expect(request.authorization).toBe('Bearer test-key');
    expect(request.response_format).toEqual({ type: 'json_object' });
    expect(request.messages.map((message) => message.content).join('\n')).toContain(
      'a personal finance fan',
    );
  });

  it('fills the places the LLM left empty from the offline judge, candidate by candidate', async () => {
    // The stand-in judges one candidate well and names one id it was never given.
    server.setBehaviour({
      kind: 'reply',
      content: () =>
        JSON.stringify({
          moments: [
            { id: 0, score: 90, title: 'The one the judge liked' },
            { id: 999, score: 99, title: 'Whole video' },
          ],
        }),
    });
    const result = await findViralMoments(synthetic.transcript, { llm: llmFor(), maxMoments: 5 });
    expect(result.method).toBe('llm');
    expect(result.moments).toHaveLength(5);
    expect(result.moments.map((moment) => moment.title)).toContain('The one the judge liked');
    expect(result.moments.map((moment) => moment.title)).not.toContain('Whole video');
    expect(result.warnings.join(' ')).toMatch(
      /judged 1 of 5 moments; 4 more were scored deterministically/,
    );
    expect(result.warnings.join(' ')).toMatch(/unknown candidate 999/);
    expect(boundaryProblems(result.moments, synthetic)).toEqual([]);
  });

  const failures = [
    [
      'a non-JSON reply',
      { kind: 'reply', content: () => 'Sure! Here are some great clips for you.' },
    ],
    [
      'JSON of the wrong shape',
      { kind: 'reply', content: () => JSON.stringify({ clips: [{ start: 0, end: 999999 }] }) },
    ],
    [
      'ids it was never given',
      {
        kind: 'reply',
        content: () => JSON.stringify({ moments: [{ id: 999, score: 99, title: 'Whole video' }] }),
      },
    ],
    ['HTTP 500', { kind: 'status', status: 500, body: 'internal error' }],
    ['a body that is not a chat completion', { kind: 'raw', body: '<html>gateway</html>' }],
    ['no answer before the timeout', { kind: 'hang' }],
  ] as const;

  // The offline judge's ranking, made once for every failure below.
  let offline: ReturnType<typeof findViralMoments> | undefined;

  it.each(failures)('falls back to the deterministic moments on %s', async (_name, behaviour) => {
    server.setBehaviour(behaviour);
    const result = await findViralMoments(synthetic.transcript, {
      llm: llmFor(),
      llmTimeoutMs: 800,
    });
    expect(result.method).toBe('deterministic');
    expect(result.warnings.join(' ')).toMatch(/LLM judging failed .*scored deterministically/);
    expect(boundaryProblems(result.moments, synthetic)).toEqual([]);
    // The fallback is exactly the offline judge's ranking (its quality is measured on held-out
    // talks in held-out.test.ts and the highlights bench, not on passages planted here).
    offline ??= findViralMoments(synthetic.transcript, {});
    const spans = (moments: Moment[]) =>
      moments.map((moment) => [moment.startMs, moment.endMs, moment.title]);
    expect(result.moments.length).toBeGreaterThan(0);
    expect(spans(result.moments)).toEqual(spans((await offline).moments));
  });
});
