import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { boundaryProblems, rankOfPlanted } from '../moments/testing/expectations';
import { SEARCH_PASSAGES } from '../moments/testing/planted';
import {
  buildSyntheticTranscript,
  type SyntheticTranscript,
} from '../moments/testing/synthetic-transcript';
import { cosine, MiniLmEmbedder } from './embeddings';
import { DEFAULT_EMBEDDING_MODEL_DIR, searchMoments, searchMomentsWithReport } from './index';
import { WordPieceTokenizer } from './wordpiece';

const modelDir = process.env.EMBEDDING_MODEL_DIR?.trim() || DEFAULT_EMBEDDING_MODEL_DIR;
const hasModel =
  existsSync(path.join(modelDir, 'model.onnx')) && existsSync(path.join(modelDir, 'vocab.txt'));
if (!hasModel)
  console.warn(
    `[search.test] no sentence-embedding model in ${modelDir} (npm run setup installs it): semantic search tests skipped`,
  );

let synthetic: SyntheticTranscript;
beforeAll(() => {
  // 18 topical passages spread through 20 minutes of ordinary talk.
  synthetic = buildSyntheticTranscript({
    minutes: 20,
    seed: 8,
    plants: SEARCH_PASSAGES.map((passage, i) => ({
      id: passage.id,
      sentences: passage.sentences,
      at: (i + 0.5) / SEARCH_PASSAGES.length,
    })),
  });
});

describe('searchMoments without the embedding model (words, stems and synonyms)', () => {
  const savedDir = process.env.EMBEDDING_MODEL_DIR;
  afterEach(() => {
    if (savedDir === undefined) delete process.env.EMBEDDING_MODEL_DIR;
    else process.env.EMBEDDING_MODEL_DIR = savedDir;
  });

  it('falls back to lexical search with a clear warning and still finds worded-alike answers', async () => {
    process.env.EMBEDDING_MODEL_DIR = '/nonexistent/moments-no-model';
    const queries: [string, string][] = [
      ['bike-patch', 'mending a bike tube'],
      ['debt', 'paying off credit card debt'],
      ['puppy-lead', 'dog pulling on the leash'],
      ['lost-hike', 'lost while hiking in fog'],
      ['coffee', 'drinking less coffee'],
      ['japan', 'moving to Japan'],
    ];
    for (const [id, query] of queries) {
      const report = await searchMomentsWithReport(synthetic.transcript, query, { limit: 5 });
      expect(report.method).toBe('lexical');
      expect(report.warnings.join(' ')).toMatch(/Semantic search is unavailable .*word matching/);
      expect(rankOfPlanted(report.moments, synthetic.planted.get(id)!), query).toBe(0);
      expect(boundaryProblems(report.moments, synthetic)).toEqual([]);
    }
  });

  it('returns nothing for a query the video does not talk about, and for an empty query', async () => {
    expect(
      await searchMoments(synthetic.transcript, 'quantum chromodynamics lattice gauge theory', {
        embedder: null,
      }),
    ).toEqual([]);
    expect(await searchMoments(synthetic.transcript, '   ', { embedder: null })).toEqual([]);
  });
});

describe.skipIf(!hasModel)('searchMoments with the local sentence-embedding model', () => {
  it('tokenises like BERT uncased (the vocabulary the model was trained with)', async () => {
    const tokenizer = new WordPieceTokenizer(
      await readFile(path.join(modelDir, 'vocab.txt'), 'utf8'),
    );
    expect(tokenizer.encode('Hello, world! Café')).toEqual([101, 7592, 1010, 2088, 999, 7668, 102]);
  });

  it('embeds paraphrases closer than unrelated sentences', async () => {
    const embedder = await MiniLmEmbedder.load(modelDir);
    const [query, answer, unrelated] = await embedder.embed([
      'how do I repair a punctured bike wheel',
      'My neighbor showed me how to patch the inner tube on my bicycle.',
      'We usually start the week by making a big pot of soup.',
    ]);
    expect(cosine(query!, answer!)).toBeGreaterThan(0.35);
    expect(cosine(query!, unrelated!)).toBeLessThan(0.15);
  });

  it('gives each text its own vector in the order asked, whatever the batch mixes', async () => {
    const embedder = await MiniLmEmbedder.load(modelDir);
    // More than one batch, lengths shuffled: the embedder batches similar lengths together.
    const texts = Array.from({ length: 70 }, (_, i) =>
      i % 3 === 0
        ? `Short line ${i}.`
        : `A much longer sentence number ${i} about rivers, bridges and the towns that grew around them over centuries.`,
    );
    const together = await embedder.embed(texts);
    for (const i of [0, 1, 35, 69]) {
      const [alone] = await embedder.embed([texts[i]!]);
      expect(cosine(together[i]!, alone!)).toBeGreaterThan(0.999);
    }
  });

  it('finds paraphrased questions among ordinary talk (recall@1 and recall@3)', async () => {
    let atRank1 = 0;
    let inTop3 = 0;
    const misses: string[] = [];
    for (const passage of SEARCH_PASSAGES) {
      const report = await searchMomentsWithReport(synthetic.transcript, passage.query, {
        limit: 5,
        minMs: 10_000,
        maxMs: 60_000,
      });
      expect(report.method).toBe('semantic');
      expect(report.warnings).toEqual([]);
      expect(boundaryProblems(report.moments, synthetic)).toEqual([]);
      for (const moment of report.moments) {
        expect(moment.endMs - moment.startMs).toBeGreaterThanOrEqual(10_000);
        expect(moment.endMs - moment.startMs).toBeLessThanOrEqual(60_000);
        expect(moment.reasons[0]?.kind).toBe('relevance');
      }
      report.moments
        .slice(1)
        .forEach((moment, i) => expect(moment.score).toBeLessThanOrEqual(report.moments[i]!.score));
      const rank = rankOfPlanted(report.moments, synthetic.planted.get(passage.id)!);
      if (rank === 0) atRank1++;
      if (rank >= 0 && rank < 3) inTop3++;
      else misses.push(`${passage.query} (rank ${rank})`);
    }
    console.log(
      `[search.test] recall@1 ${atRank1}/${SEARCH_PASSAGES.length}, recall@3 ${inTop3}/${SEARCH_PASSAGES.length}; missed: ${misses.join('; ') || 'none'}`,
    );
    expect(atRank1 / SEARCH_PASSAGES.length).toBeGreaterThanOrEqual(0.75);
    expect(inTop3 / SEARCH_PASSAGES.length).toBeGreaterThanOrEqual(0.85);
  });

  it('returns nothing for a query the video does not talk about', async () => {
    const report = await searchMomentsWithReport(
      synthetic.transcript,
      'quantum chromodynamics lattice gauge theory',
    );
    expect(report.method).toBe('semantic');
    expect(report.moments).toEqual([]);
  });
});
