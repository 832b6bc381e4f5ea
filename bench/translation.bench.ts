/**
 * Caption translation quality and speed, per engine and language pair (decide by
 * measurement). 50 English caption sentences with hand-written references in es, de, fr, zh and
 * ar (bench/data/translation-en.json, how they were made is in its `about`). For each engine:
 * corpus chrF (sacreBLEU's chrF2, packages/ai/src/translate/chrf.ts), the share of sentences whose
 * numbers all survive, and sentences per second.
 *
 * Engines: `copy` (the English itself: the floor any engine must clear by far); the configured
 * OpenAI-compatible endpoint through the product's own LlmTranslator when LLM_BASE_URL and
 * LLM_MODEL are set; a local GGUF model in process with node-llama-cpp when
 * TRANSLATION_BENCH_GGUF names the .gguf file (node-llama-cpp must be installed, or be named by
 * TRANSLATION_BENCH_LLAMA_MODULE). Engines not
 * available here are listed as skipped, with why. TRANSLATION_BENCH_LIMIT=n uses the first n
 * sentences (quick looks only; the decision figures use all 50).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { corpusChrF } from '../packages/ai/src/translate/chrf';
import { createTranslator } from '../packages/ai/src/translate/index';
import { loadLocalGguf } from './local-gguf';

const PAIRS = ['es', 'de', 'fr', 'zh', 'ar'] as const;
type Pair = (typeof PAIRS)[number];
const NAMES: Record<Pair, string> = {
  es: 'Spanish',
  de: 'German',
  fr: 'French',
  zh: 'Simplified Chinese',
  ar: 'Arabic',
};

interface Sentence extends Record<Pair, string> {
  en: string;
}

interface Engine {
  name: string;
  translate(sentences: string[], to: Pair): Promise<string[]>;
  close?(): Promise<void>;
}

/** Digits groups of the English (thousand separators dropped), which a translation must keep. */
function numbersKept(source: string, translation: string): boolean {
  const numbers = (text: string) =>
    (text.replace(/(\d)[,.\s](?=\d{3}\b)/g, '$1').match(/\d+(?:[.,:]\d+)?/g) ?? []).map((n) =>
      n.replace(',', '.'),
    );
  const found = new Set(numbers(translation));
  return numbers(source).every((number) => found.has(number));
}

async function localGgufEngine(modelPath: string): Promise<Engine> {
  // TRANSLATION_BENCH_LLAMA_MODULE: node-llama-cpp's dist/index.js when installed outside this
  // checkout; TRANSLATION_BENCH_THREADS: CPU threads (default one per core).
  const gguf = await loadLocalGguf({
    modelPath,
    moduleName: process.env.TRANSLATION_BENCH_LLAMA_MODULE,
    threads: Number(process.env.TRANSLATION_BENCH_THREADS) || undefined,
    contextSize: 1024,
  });
  return {
    name: `local GGUF ${gguf.label}`,
    async translate(sentences, to) {
      const out: string[] = [];
      for (const sentence of sentences) {
        // A fresh chat per sentence: no earlier sentence leaks into the next.
        const reply = await gguf.chat(
          [
            {
              role: 'system',
              content: `You translate English video captions into ${NAMES[to]}. Reply with the translation only.`,
            },
            { role: 'user', content: sentence },
          ],
          { maxTokens: 120 },
        );
        out.push(reply.trim().split('\n')[0] ?? '');
      }
      return out;
    },
    close: () => gguf.close(),
  };
}

export default async function run(): Promise<void> {
  const data = JSON.parse(
    await readFile(join(import.meta.dirname, 'data', 'translation-en.json'), 'utf8'),
  ) as { sentences: Sentence[] };
  const limit = Number(process.env.TRANSLATION_BENCH_LIMIT) || data.sentences.length;
  const sentences = data.sentences.slice(0, limit);
  const english = sentences.map((sentence) => sentence.en);

  const engines: Engine[] = [{ name: 'copy (no translation)', translate: async (s) => [...s] }];
  const skipped: string[] = [];
  if (process.env.LLM_BASE_URL && process.env.LLM_MODEL) {
    const translator = createTranslator(process.env);
    engines.push({
      name: `LLM endpoint ${process.env.LLM_MODEL} (product LlmTranslator)`,
      translate: (lines, to) =>
        translator.translateLines(
          lines.map((text) => ({ text })),
          'en',
          to,
        ),
    });
  } else {
    skipped.push('LLM endpoint: LLM_BASE_URL/LLM_MODEL not set');
  }
  const gguf = process.env.TRANSLATION_BENCH_GGUF;
  if (gguf) {
    try {
      engines.push(await localGgufEngine(gguf));
    } catch (error) {
      skipped.push(`local GGUF ${gguf}: ${(error as Error).message}`);
    }
  } else {
    skipped.push('local GGUF (node-llama-cpp): TRANSLATION_BENCH_GGUF not set');
  }

  console.log(`translation: ${sentences.length} English caption sentences per pair`);
  for (const engine of engines) {
    const scores: string[] = [];
    for (const pair of PAIRS) {
      const started = performance.now();
      let hypotheses: string[];
      try {
        hypotheses = await engine.translate(english, pair);
      } catch (error) {
        console.log(`translation ${engine.name} en-${pair}: failed: ${(error as Error).message}`);
        continue;
      }
      const seconds = (performance.now() - started) / 1000;
      const chrf = corpusChrF(
        hypotheses,
        sentences.map((sentence) => sentence[pair]),
      );
      const kept = hypotheses.filter((hyp, i) => numbersKept(english[i]!, hyp)).length;
      scores.push(chrf.toFixed(1));
      console.log(
        `translation ${engine.name} en-${pair}: chrF ${chrf.toFixed(1)}, numbers intact ${kept}/${hypotheses.length}, ` +
          `${(hypotheses.length / seconds).toFixed(2)} sentences/s`,
      );
    }
    console.log(`translation ${engine.name}: chrF es/de/fr/zh/ar = ${scores.join(' / ')}`);
    await engine.close?.();
  }
  for (const reason of skipped) console.log(`translation skipped: ${reason}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
