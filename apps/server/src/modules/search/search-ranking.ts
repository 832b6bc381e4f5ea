import {
  cosine,
  loadDefaultEmbedder,
  reciprocalRankFusion,
  pgvectorText,
  type SentenceEmbedder,
} from '@moments/ai/search';
import { silentLogger, type Logger } from '../../logging.js';
import { QueryEmbeddings } from './query-embeddings.js';
import type { EmbedderSource } from './search-indexer.js';
import type { CandidateDocument, SearchRepository } from './search.repository.js';
import { queryWords } from './snippets.js';

/** One result of the home search, best first: a moment, or a video with its answering passage. */
export interface RankedHit {
  kind: 'task' | 'moment';
  taskId: string;
  momentId: string | null;
  /** For a video: the passage that answers best (null for a title-only or substring hit). */
  passageId: string | null;
  /** Found by meaning alone: none of its documents contains a word of the query. */
  byMeaningOnly: boolean;
}

/** Documents of each kind a query word may propose (GIN index, then BM25 on these only). */
const PER_WORD_CAP = 50;
/** Documents of each kind proposed by meaning (the nearest by the HNSW index). */
const MEANING_CAP = 50;
/** The best word candidates also ranked by meaning. */
const RESCORE_CAP = 50;
/**
 * Cosine below which a document is not about the query (all-MiniLM-L6-v2; the answer threshold of
 * the question search in packages/ai, 0.15 + 0.3 of its 0.15-0.65 scale). Chosen before the
 * evaluation set was run, not tuned on it.
 */
const MEANING_FLOOR = 0.3;
/** Query vectors kept per process: popular queries repeat. */
const QUERY_CACHE_SIZE = 1000;

interface ItemScores {
  hit: RankedHit;
  /** Word score: a moment's, or a video's title plus its best passage. */
  bm25: number;
  passageBm25: number;
  titleBm25: number;
  meaning: number;
  /** Best passage so far by its own fused rank. */
  passageScore: number;
}

const keyOf = (doc: { kind: string; id: string; taskId: string }) =>
  doc.kind === 'moment' ? `m:${doc.id}` : `t:${doc.taskId}`;

/** Item ids ordered by one score, best first, keeping only those above `floor`. */
const rankingBy = (items: Map<string, ItemScores>, score: (s: ItemScores) => number, floor = 0) =>
  [...items]
    .filter(([, s]) => score(s) > floor)
    .sort(([a, x], [b, y]) => score(y) - score(x) || (a < b ? -1 : 1))
    .map(([key]) => key);

/**
 * The home search's ranking: BM25 over stems from the database's indexes, the stored MiniLM
 * embeddings of moments and passages for meaning, fused by reciprocal rank fusion. Titles weigh
 * more: a title's words count three times in BM25, and title matches are a ranking of their own.
 */
export class SearchRanking {
  private readonly queryEmbeddings: QueryEmbeddings;

  constructor(
    private readonly repo: SearchRepository,
    private readonly embedderSource: EmbedderSource = () => loadDefaultEmbedder(),
    private readonly log: Logger = silentLogger,
  ) {
    this.queryEmbeddings = new QueryEmbeddings({ size: QUERY_CACHE_SIZE, log });
  }

  async rank(userId: string | null, query: string): Promise<RankedHit[]> {
    const loaded = await this.embedderSource();
    const vector = loaded.embedder ? await this.queryVector(loaded.embedder, query) : null;
    let documents = await this.repo.candidates({
      userId,
      query,
      perWordCap: PER_WORD_CAP,
      rescoreCap: RESCORE_CAP,
      ...(vector && loaded.embedder
        ? {
            meaning: {
              vector: pgvectorText(vector),
              model: loaded.embedder.modelId,
              cap: MEANING_CAP,
            },
          }
        : {}),
    });
    if (!documents.some((doc) => doc.bm25 !== null)) {
      // No stem of the query occurs anywhere (a partial word, an unsplit script): substrings.
      const matches = await this.repo.substringMatches(userId, queryWords(query), PER_WORD_CAP);
      documents = [
        ...matches.map((m, i) => ({
          ...m,
          bm25: matches.length - i,
          titleBm25: 0,
          cosine: null,
        })),
        ...documents,
      ];
    }
    return fuse(documents, vector);
  }

  /**
   * Of the sentences of a hit found by meaning (none shares a word with the query), the index of
   * the one nearest to the query, or -1 without the model. Embeds a few sentences: for the top of
   * a page only.
   */
  async nearestSentence(query: string, sentences: string[]): Promise<number> {
    const { embedder } = await this.embedderSource();
    if (!embedder || !sentences.length) return -1;
    const vector = await this.queryVector(embedder, query);
    if (!vector) return -1;
    try {
      const vectors = await embedder.embed(sentences);
      let best = -1;
      let bestCosine = -Infinity;
      vectors.forEach((v, i) => {
        const similarity = cosine(vector, v);
        if (similarity > bestCosine) [best, bestCosine] = [i, similarity];
      });
      return best;
    } catch (err) {
      // The snippet falls back to the passage's first sentence; the hit itself stands.
      this.log.warn({ err }, 'search: embedding the snippet sentences failed');
      return -1;
    }
  }

  /** The query's embedding: cached per process, batched with concurrent queries. */
  private queryVector(embedder: SentenceEmbedder, query: string): Promise<Float32Array | null> {
    return this.queryEmbeddings.get(embedder, query);
  }
}

/**
 * Fuses the candidates into results: a moment is one result, a video gathers its title and its
 * passages (its word score: the title's plus its best passage's; its meaning: its nearest passage).
 */
function fuse(documents: CandidateDocument[], vector: Float32Array | null): RankedHit[] {
  const cosineOf = (doc: CandidateDocument) => (vector && doc.cosine !== null ? doc.cosine : 0);
  // Passages compete for "the answering passage" by their own fused rank.
  const passages = documents.filter((doc) => doc.kind === 'passage');
  const passageRanks = reciprocalRankFusion([
    passages
      .filter((d) => d.bm25 !== null)
      .sort((a, b) => b.bm25! - a.bm25!)
      .map((d) => d.id),
    passages
      .filter((d) => cosineOf(d) >= MEANING_FLOOR)
      .sort((a, b) => cosineOf(b) - cosineOf(a))
      .map((d) => d.id),
  ]);

  const items = new Map<string, ItemScores>();
  for (const doc of documents) {
    const key = keyOf(doc);
    let item = items.get(key);
    if (!item) {
      item = {
        hit: {
          kind: doc.kind === 'moment' ? 'moment' : 'task',
          taskId: doc.taskId,
          momentId: doc.kind === 'moment' ? doc.id : null,
          passageId: null,
          byMeaningOnly: false,
        },
        bm25: 0,
        passageBm25: 0,
        titleBm25: 0,
        meaning: 0,
        passageScore: 0,
      };
      items.set(key, item);
    }
    item.meaning = Math.max(item.meaning, cosineOf(doc));
    if (doc.kind === 'passage') {
      const score = passageRanks.get(doc.id) ?? 0;
      if (score > item.passageScore) {
        item.passageScore = score;
        item.hit.passageId = doc.id;
      }
      item.passageBm25 = Math.max(item.passageBm25, doc.bm25 ?? 0);
    } else {
      // A moment, or a video's title (a video's body is its passages).
      item.bm25 = Math.max(item.bm25, doc.bm25 ?? 0);
      item.titleBm25 = Math.max(item.titleBm25, doc.titleBm25);
    }
  }
  for (const item of items.values()) {
    item.bm25 += item.passageBm25;
    item.hit.byMeaningOnly = item.bm25 === 0;
  }
  const fused = reciprocalRankFusion([
    rankingBy(items, (s) => s.bm25),
    rankingBy(items, (s) => s.titleBm25),
    rankingBy(items, (s) => s.meaning, MEANING_FLOOR - Number.EPSILON),
  ]);
  return [...fused]
    .sort(([a, x], [b, y]) => y - x || items.get(b)!.bm25 - items.get(a)!.bm25 || (a < b ? -1 : 1))
    .map(([key]) => items.get(key)!.hit);
}
