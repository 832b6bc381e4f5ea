import { describe, expect, it } from 'vitest';
import type { Sentence } from '../moments/sentences';
import { lexicalVectors, topicStarts } from './shifts';

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
