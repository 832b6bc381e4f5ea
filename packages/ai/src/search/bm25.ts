import { synonymsOf } from './synonyms';
import { contentTerms } from './text';

const K1 = 1.2;
const B = 0.75;
/** A synonym counts for a fraction of the word the user actually typed. */
const SYNONYM_WEIGHT = 0.5;

/** Okapi BM25 over short documents (sentences), the always-available relevance scorer. */
export class LexicalIndex {
  private readonly termFrequencies: Map<string, number>[];
  private readonly documentFrequency = new Map<string, number>();
  private readonly lengths: number[];
  private readonly averageLength: number;

  constructor(documents: readonly string[]) {
    this.termFrequencies = documents.map((document) => {
      const frequencies = new Map<string, number>();
      for (const term of contentTerms(document))
        frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
      for (const term of frequencies.keys())
        this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
      return frequencies;
    });
    this.lengths = this.termFrequencies.map((frequencies) =>
      [...frequencies.values()].reduce((a, b) => a + b, 0),
    );
    this.averageLength =
      this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, this.lengths.length) || 1;
  }

  get size(): number {
    return this.termFrequencies.length;
  }

  /** Inverse document frequency (BM25+ style, never negative). */
  idf(term: string): number {
    const n = this.termFrequencies.length;
    const df = this.documentFrequency.get(term) ?? 0;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** Query terms with their weights: the typed words at 1, their synonyms at SYNONYM_WEIGHT. */
  static expandQuery(query: string, withSynonyms = true): Map<string, number> {
    const weights = new Map<string, number>();
    for (const term of contentTerms(query)) weights.set(term, 1);
    if (withSynonyms) {
      for (const term of [...weights.keys()]) {
        for (const synonym of synonymsOf(term)) {
          if (!weights.has(synonym)) weights.set(synonym, SYNONYM_WEIGHT);
        }
      }
    }
    return weights;
  }

  /** BM25 score of every document for the weighted query terms. */
  scoreAll(queryWeights: Map<string, number>): Float64Array {
    const scores = new Float64Array(this.termFrequencies.length);
    for (const [term, weight] of queryWeights) {
      if (!this.documentFrequency.has(term)) continue;
      const idf = this.idf(term);
      this.termFrequencies.forEach((frequencies, index) => {
        const tf = frequencies.get(term);
        if (!tf) return;
        const norm = K1 * (1 - B + (B * (this.lengths[index] ?? 0)) / this.averageLength);
        scores[index] = (scores[index] ?? 0) + weight * idf * ((tf * (K1 + 1)) / (tf + norm));
      });
    }
    return scores;
  }

  /** Which of the query's terms (or their synonyms) a document contains. */
  matchedTerms(documentIndex: number, queryWeights: Map<string, number>): string[] {
    const frequencies = this.termFrequencies[documentIndex];
    if (!frequencies) return [];
    return [...queryWeights.keys()].filter((term) => frequencies.has(term));
  }
}
