import type { SentenceEmbedder } from '@moments/ai/search';
import { silentLogger, type Logger } from '../../logging.js';

interface Waiting {
  text: string;
  resolve: (vector: Float32Array | null) => void;
}

interface Queue {
  running: boolean;
  waiting: Waiting[];
}

/** The same query however it was spaced or cased is one embedding. */
const normalise = (query: string) => query.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * Embeddings of search queries: a bounded LRU cache (popular queries repeat), and batching of
 * concurrent ones: while the model embeds one batch, the queries that arrive wait and go through
 * it together in the next (one model run for many queries costs little more than for one, so
 * under load the queue drains instead of growing). A query alone runs at once.
 */
export class QueryEmbeddings {
  private readonly cache = new Map<string, Promise<Float32Array | null>>();
  private readonly queues = new WeakMap<SentenceEmbedder, Queue>();

  constructor(private readonly options: { size?: number; maxBatch?: number; log?: Logger } = {}) {}

  /** The query's embedding, or null (nothing to embed, or the model failed: words only). */
  get(embedder: SentenceEmbedder, query: string): Promise<Float32Array | null> {
    // A query of punctuation only has no meaning to match.
    if (!/[\p{L}\p{N}]/u.test(query)) return Promise.resolve(null);
    const text = normalise(query);
    const key = `${embedder.modelId}\u0000${text}`;
    const cached = this.cache.get(key);
    if (cached) {
      // Most recently used last: the first key is the one to evict.
      this.cache.delete(key);
      this.cache.set(key, cached);
      return cached;
    }
    const embedding = new Promise<Float32Array | null>((resolve) =>
      this.enqueue(embedder, { text: query.trim(), resolve }),
    ).then((vector) => {
      if (!vector) this.cache.delete(key); // a failure is tried again next time
      return vector;
    });
    this.cache.set(key, embedding);
    while (this.cache.size > (this.options.size ?? 1000)) {
      this.cache.delete(this.cache.keys().next().value!);
    }
    return embedding;
  }

  get cached(): number {
    return this.cache.size;
  }

  private enqueue(embedder: SentenceEmbedder, waiting: Waiting) {
    let queue = this.queues.get(embedder);
    if (!queue) {
      queue = { running: false, waiting: [] };
      this.queues.set(embedder, queue);
    }
    queue.waiting.push(waiting);
    if (!queue.running) void this.drain(embedder, queue);
  }

  private async drain(embedder: SentenceEmbedder, queue: Queue) {
    queue.running = true;
    try {
      while (queue.waiting.length) {
        const batch = queue.waiting.splice(0, this.options.maxBatch ?? 32);
        try {
          const vectors = await embedder.embed(batch.map((item) => item.text));
          batch.forEach((item, i) => item.resolve(vectors[i] ?? null));
        } catch (err) {
          (this.options.log ?? silentLogger).warn(
            { err },
            'search: query embedding failed; ranking by words only',
          );
          for (const item of batch) item.resolve(null);
        }
      }
    } finally {
      queue.running = false;
    }
  }
}
