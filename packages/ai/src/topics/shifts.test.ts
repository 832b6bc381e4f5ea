import { describe, expect, it } from 'vitest';
import type { Sentence } from '../moments/sentences';
import type { Transcript } from '../moments/types';
import { loadDefaultEmbedder, type SentenceEmbedder } from '../search/embeddings';
import { lexicalVectors, sentenceVectors, topicStarts } from './shifts';

/** The sentences of a 50-second talk on three subjects as the speech engine split them. */
const TEXTS = [
  'Honey bees live together in a hive ruled by a single queen, worker bees fly from flower to flower collecting nectar and pollen.',
  'Back at the hive the bees turn the nectar into honey and store it in wax cells.',
  'Beekeepers use smoke to keep the bees calm while they check the honey frames of the hive.',
  'A volcano forms where hot magma rises from deep inside the earth.',
  'When the pressure builds up, the volcano erupts and throws lava, ash and magma into the sky.',
  'Lava flows cover valleys in black rock, scientists measure earthquakes around the volcano crater.',
  'To bake bread at home you need flour, water, salt and yeast, mix them into a dough and knead the dough.',
  'Let the bread dough rise in a warm place for about an hour.',
  'Then bake the bread loaf in a hot oven until the crust of the bread turns golden brown.',
];

/** Sentence timings with the given pause (ms) before each sentence after the first. */
function timed(pauses: number[]): Sentence[] {
  let at = 0;
  return TEXTS.map((text, index) => {
    at += index === 0 ? 0 : pauses[index - 1]!;
    const sentence = { index, startMs: at, endMs: at + 5700, text, words: [], terminal: true };
    at += 5700;
    return sentence;
  });
}

describe('topicStarts on a short talk', () => {
  it('cuts at the changes of subject when two pauses inside a topic are a little longer', () => {
    // Two gaps of 420 ms against a usual 270 ms, both inside the first topic: too few to be
    // the talk's paragraphs (with two candidates, none can stand out of them).
    const sentences = timed([420, 0, 420, 180, 230, 270, 140, 380]);
    const starts = topicStarts(
      sentences,
      lexicalVectors(sentences.map((sentence) => sentence.text)),
    );
    expect(starts).toEqual([0, 3, 6]);
  });
});

describe('sentence vectors of a transcript that grows chunk by chunk', () => {
  it('sends only the new sentences through the model, with the same vectors', async () => {
    const { embedder: model } = await loadDefaultEmbedder();
    expect(model, 'the MiniLM model is installed by scripts/setup.sh').toBeDefined();
    // The real model, counting what goes through it (a fresh wrapper: nothing remembered yet).
    const through: string[] = [];
    const counting: SentenceEmbedder = {
      modelId: model!.modelId,
      embed: (texts, options) => {
        through.push(...texts);
        return model!.embed(texts, options);
      },
    };
    const sentences = timed([300, 300, 300, 300, 300, 300, 300, 300]);
    // The transcript as the task page sees it after each chunk: a new object every time.
    const grown = () => ({ segments: [] }) as unknown as Transcript;

    const first = await sentenceVectors(grown(), sentences.slice(0, 6), counting);
    expect(through).toHaveLength(6);
    const all = await sentenceVectors(grown(), sentences, counting);
    expect(through, 'only the three sentences of the new chunk').toHaveLength(9);
    expect(through.slice(6)).toEqual(TEXTS.slice(6));

    const direct = await model!.embed(TEXTS);
    all.forEach((vector, index) => {
      expect(Array.from(vector)).toEqual(
        Array.from(direct[index]!).map((x) => expect.closeTo(x, 4)),
      );
    });
    expect(first[0]).toBe(all[0]);
  });
});
