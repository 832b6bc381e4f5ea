import type { SentenceEmbedder } from '@moments/ai/search';
import { describe, expect, it } from 'vitest';
import { QueryEmbeddings } from './query-embeddings.js';

/** An embedder that records each model run's texts and answers after a tick. */
function recordingEmbedder(fail = false) {
  const runs: string[][] = [];
  const embedder: SentenceEmbedder = {
    modelId: 'test',
    async embed(texts) {
      runs.push([...texts]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (fail) throw new Error('model failed');
      return texts.map((text) => Float32Array.of(text.length));
    },
  };
  return { embedder, runs };
}

describe('query embeddings', () => {
  it('embeds concurrent queries in one batch after the one already running', async () => {
    const { embedder, runs } = recordingEmbedder();
    const embeddings = new QueryEmbeddings();
    const vectors = await Promise.all(
      ['first', 'second one', 'third', 'fourth query'].map((q) => embeddings.get(embedder, q)),
    );
    expect(runs).toEqual([['first'], ['second one', 'third', 'fourth query']]);
    expect(vectors.map((v) => v![0])).toEqual([5, 10, 5, 12]);
  });

  it('answers a repeated query from the cache however it is spaced or cased', async () => {
    const { embedder, runs } = recordingEmbedder();
    const embeddings = new QueryEmbeddings();
    await embeddings.get(embedder, 'Pricing  roadmap');
    await embeddings.get(embedder, ' pricing roadmap ');
    expect(runs).toHaveLength(1);
  });

  it('keeps at most `size` queries, dropping the least recently used', async () => {
    const { embedder, runs } = recordingEmbedder();
    const embeddings = new QueryEmbeddings({ size: 2 });
    await embeddings.get(embedder, 'a');
    await embeddings.get(embedder, 'b');
    await embeddings.get(embedder, 'a'); // used again: b is now the oldest
    await embeddings.get(embedder, 'c');
    expect(embeddings.cached).toBe(2);
    await embeddings.get(embedder, 'a');
    await embeddings.get(embedder, 'b');
    expect(runs.flat()).toEqual(['a', 'b', 'c', 'b']);
  });

  it('gives null for a failed run or a query with no words, and retries a failure', async () => {
    const failing = recordingEmbedder(true);
    const embeddings = new QueryEmbeddings();
    expect(await embeddings.get(failing.embedder, 'x')).toBeNull();
    expect(await embeddings.get(failing.embedder, 'x')).toBeNull();
    expect(failing.runs).toHaveLength(2);
    expect(await embeddings.get(failing.embedder, '?!')).toBeNull();
    expect(failing.runs).toHaveLength(2);
  });
});
