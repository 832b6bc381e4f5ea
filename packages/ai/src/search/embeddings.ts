import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as OnnxRuntime from 'onnxruntime-node';
import { WordPieceTokenizer } from './wordpiece';

/** Turns texts into unit-length vectors whose dot product is their semantic similarity. */
export interface SentenceEmbedder {
  readonly modelId: string;
  embed(texts: readonly string[], options?: { signal?: AbortSignal }): Promise<Float32Array[]>;
}

/** Where scripts/setup.sh installs the model (from PyPI packages, see search/README in the report). */
export const DEFAULT_EMBEDDING_MODEL_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../.tools/models/all-minilm-l6-v2',
);

const BATCH_SIZE = 32;

type OrtModule = typeof OnnxRuntime;
type OrtSession = Awaited<ReturnType<OrtModule['InferenceSession']['create']>>;

/** all-MiniLM-L6-v2 (int8 ONNX) run on onnxruntime's CPU backend, loaded from local files only. */
export class MiniLmEmbedder implements SentenceEmbedder {
  readonly modelId = 'all-MiniLM-L6-v2-int8';

  private constructor(
    private readonly ort: OrtModule,
    private readonly session: OrtSession,
    private readonly tokenizer: WordPieceTokenizer,
  ) {}

  static async load(modelDir: string, options: { threads?: number } = {}): Promise<MiniLmEmbedder> {
    const modelPath = path.join(modelDir, 'model.onnx');
    const vocabPath = path.join(modelDir, 'vocab.txt');
    for (const file of [modelPath, vocabPath]) {
      if (!existsSync(file))
        throw new Error(`embedding model file missing: ${file} (run npm run setup)`);
    }
    const ort = await import('onnxruntime-node');
    const session = await ort.InferenceSession.create(modelPath, {
      // One thread: the machine is shared with transcription and rendering, and batches are small.
      intraOpNumThreads: options.threads ?? 1,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
    return new MiniLmEmbedder(
      ort,
      session,
      new WordPieceTokenizer(await readFile(vocabPath, 'utf8')),
    );
  }

  async embed(
    texts: readonly string[],
    options: { signal?: AbortSignal } = {},
  ): Promise<Float32Array[]> {
    // Batches of texts of similar length (as sentence-transformers does): a batch is padded to
    // its longest text, so mixing a long sentence with short ones wastes most of the work.
    const encoded = texts.map((text) => this.tokenizer.encode(text));
    const order = encoded
      .map((_, index) => index)
      .sort((a, b) => encoded[a]!.length - encoded[b]!.length);
    const vectors: Float32Array[] = new Array<Float32Array>(texts.length);
    for (let offset = 0; offset < order.length; offset += BATCH_SIZE) {
      options.signal?.throwIfAborted();
      const batch = order.slice(offset, offset + BATCH_SIZE);
      const embedded = await this.embedBatch(batch.map((index) => encoded[index]!));
      batch.forEach((index, row) => (vectors[index] = embedded[row]!));
    }
    return vectors;
  }

  /** One batch of token ids (each with its [CLS] and [SEP]) through the model. */
  private async embedBatch(encoded: readonly number[][]): Promise<Float32Array[]> {
    const length = Math.max(...encoded.map((ids) => ids.length));
    const inputIds = new BigInt64Array(encoded.length * length);
    const attention = new BigInt64Array(encoded.length * length);
    encoded.forEach((ids, row) => {
      ids.forEach((id, column) => {
        inputIds[row * length + column] = BigInt(id);
        attention[row * length + column] = 1n;
      });
    });
    const shape = [encoded.length, length];
    const outputs = await this.session.run({
      input_ids: new this.ort.Tensor('int64', inputIds, shape),
      attention_mask: new this.ort.Tensor('int64', attention, shape),
      token_type_ids: new this.ort.Tensor(
        'int64',
        new BigInt64Array(encoded.length * length),
        shape,
      ),
    });
    const hidden = outputs.last_hidden_state;
    if (!hidden) throw new Error('embedding model gave no last_hidden_state');
    const data = hidden.data as Float32Array;
    const dims = hidden.dims[2] ?? 0;
    // Mean pooling over real tokens, then L2 normalisation (sentence-transformers' recipe for this model).
    return encoded.map((ids, row) => {
      const vector = new Float32Array(dims);
      for (let t = 0; t < ids.length; t++) {
        const base = (row * length + t) * dims;
        for (let d = 0; d < dims; d++) vector[d] = (vector[d] ?? 0) + (data[base + d] ?? 0);
      }
      let norm = 0;
      for (let d = 0; d < dims; d++) norm += (vector[d] ?? 0) ** 2;
      norm = Math.sqrt(norm) || 1;
      for (let d = 0; d < dims; d++) vector[d] = (vector[d] ?? 0) / norm;
      return vector;
    });
  }
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] ?? 0) * (b[i] ?? 0);
  return sum;
}

const embeddersByDir = new Map<
  string,
  Promise<{ embedder?: SentenceEmbedder; warning?: string }>
>();

let configuredModelDir: string | undefined;

/**
 * Where the sentence model lives, set once at start (the server passes EMBEDDING_MODEL_DIR);
 * undefined or empty goes back to DEFAULT_EMBEDDING_MODEL_DIR.
 */
export function configureEmbeddings(options: { modelDir?: string } = {}): void {
  configuredModelDir = options.modelDir?.trim() || undefined;
}

/**
 * The sentence embedder from `modelDir`, else the configured folder, else
 * DEFAULT_EMBEDDING_MODEL_DIR, loaded once per folder; when it is absent or fails to load, a
 * warning saying search falls back to words only.
 */
export function loadDefaultEmbedder(
  options: { modelDir?: string } = {},
): Promise<{ embedder?: SentenceEmbedder; warning?: string }> {
  const modelDir = options.modelDir?.trim() || configuredModelDir || DEFAULT_EMBEDDING_MODEL_DIR;
  let loading = embeddersByDir.get(modelDir);
  if (!loading) {
    loading = MiniLmEmbedder.load(modelDir).then(
      (embedder) => ({ embedder }),
      (error: unknown) => ({
        warning: `Semantic search is unavailable (${(error as Error).message}); using word matching with synonyms only.`,
      }),
    );
    embeddersByDir.set(modelDir, loading);
  }
  return loading;
}
