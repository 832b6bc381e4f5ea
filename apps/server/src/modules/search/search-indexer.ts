import { storedSegments } from '@moments/domain/transcript';
import {
  loadDefaultEmbedder,
  pgvectorText,
  transcriptPassages,
  type SentenceEmbedder,
} from '@moments/ai/search';
import { silentLogger, type Logger } from '../../logging.js';
import type { SearchIndexRepository } from './search-index.repository.js';

/** How many documents are embedded per round trip (the model batches 32 at a time). */
const EMBED_BATCH = 64;

export type EmbedderSource = () => Promise<{ embedder?: SentenceEmbedder; warning?: string }>;

/**
 * Keeps the home search's index: a task's transcript passages, the embeddings of its moments and
 * passages (MiniLM, when the local model is installed) and the BM25 corpus statistics. Runs when a
 * task finishes, and as the `search-index` job for rows stored before (or without) the model.
 */
export class SearchIndexer {
  constructor(
    private readonly repo: SearchIndexRepository,
    private readonly embedderSource: EmbedderSource = () => loadDefaultEmbedder(),
    private readonly log: Logger = silentLogger,
  ) {}

  /**
   * Indexes one analysed task: passages from its transcript, embeddings of its documents, its
   * words in the corpus statistics. A failure is logged and left to the search-index job: the
   * task itself is done either way.
   */
  async indexTask(
    task: { id: string; userId: string },
    segments: readonly { text: string; startMs: number; endMs: number }[],
    signal?: AbortSignal,
  ): Promise<void> {
    await this.indexWords(task, segments, signal);
    await this.embedTask(task, signal);
  }

  /**
   * The words of one analysed task: its passages and its words in the corpus statistics, so the
   * search finds it by its words at once (quick: no model runs). A failure is logged and left
   * to the search-index job.
   */
  async indexWords(
    task: { id: string; userId: string },
    segments: readonly { text: string; startMs: number; endMs: number }[],
    signal?: AbortSignal,
  ): Promise<void> {
    await this.logged(task, signal, async () => {
      await this.repo.replacePassages(task.id, task.userId, transcriptPassages(segments));
      await this.repo.countNewDocuments(task.id);
    });
  }

  /**
   * The embeddings of one task's documents not yet embedded by the current model (its passages
   * and moments), for the semantic search; a failure is logged and left to the search-index job.
   */
  async embedTask(task: { id: string; userId: string }, signal?: AbortSignal): Promise<void> {
    await this.logged(task, signal, async () => {
      const { embedder, warning } = await this.embedderSource();
      if (embedder) await this.embedPending(embedder, signal, task.id);
      else this.log.warn({ taskId: task.id, warning }, 'search index: words only');
    });
  }

  private async logged(
    task: { id: string; userId: string },
    signal: AbortSignal | undefined,
    work: () => Promise<void>,
  ): Promise<void> {
    try {
      await work();
    } catch (err) {
      signal?.throwIfAborted();
      this.log.error(
        { err, taskId: task.id, userId: task.userId },
        'search index: indexing the task failed; the search-index job will retry',
      );
    }
  }

  /**
   * The backfill: passages for transcripts stored before this index, embeddings for documents
   * without one from the current model, then a full recount of the corpus statistics.
   */
  async backfill(signal?: AbortSignal): Promise<{ passages: number; embedded: number }> {
    let passages = 0;
    for (;;) {
      signal?.throwIfAborted();
      const transcripts = await this.repo.transcriptsWithoutPassages(50);
      if (!transcripts.length) break;
      for (const row of transcripts) {
        const built = transcriptPassages(storedSegments(row.segments));
        // A transcript without words still gets a row, so the backfill does not revisit it.
        await this.repo.replacePassages(
          row.task_id,
          row.user_id,
          built.length ? built : [{ startMs: 0, endMs: 0, lines: [''], segmentStarts: [0] }],
        );
        passages += built.length;
      }
    }
    const { embedder, warning } = await this.embedderSource();
    let embedded = 0;
    if (embedder) embedded = await this.embedPending(embedder, signal);
    else this.log.warn({ warning }, 'search index: no embedding model, words only');
    await this.repo.recountCorpus();
    this.log.info({ passages, embedded }, 'search index backfilled');
    return { passages, embedded };
  }

  private async embedPending(
    embedder: SentenceEmbedder,
    signal?: AbortSignal,
    taskId?: string,
  ): Promise<number> {
    let embedded = 0;
    const seen = new Set<string>();
    for (;;) {
      signal?.throwIfAborted();
      const pending = await this.repo.pendingEmbeddings(embedder.modelId, EMBED_BATCH, taskId);
      if (!pending.length) return embedded;
      // A document that comes back after being embedded was rewritten meanwhile (its text changed
      // again): the next round picks it up; never loop on it here.
      if (pending.every((doc) => seen.has(`${doc.kind}:${doc.id}`))) return embedded;
      for (const doc of pending) seen.add(`${doc.kind}:${doc.id}`);
      const vectors = await embedder.embed(
        pending.map((doc) => doc.text),
        { signal },
      );
      await this.repo.saveEmbeddings(
        pending.map((doc, i) => {
          return { ...doc, vector: pgvectorText(vectors[i]!), model: embedder.modelId };
        }),
      );
      embedded += pending.length;
    }
  }
}
