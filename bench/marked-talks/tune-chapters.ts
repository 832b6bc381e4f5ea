/**
 * `node --import tsx bench/marked-talks/tune-chapters.ts [dev|dev2 ...]`: how the topic-shift
 * settings (packages/ai/src/topics/shifts.ts TUNING) place chapter starts on the dev sets' marked
 * shifts (talks already spoken only), for the defaults and a grid of settings, e.g.
 * TUNE_GRID='{"cueWeight":[0,0.6],"minTopicMs":[30000,45000]}'. Dev sets only: the frozen set is
 * never tuned on.
 */
import { splitSentences } from '../../packages/ai/src/moments/sentences';
import { loadDefaultEmbedder } from '../../packages/ai/src/search/index';
import type { TUNING } from '../../packages/ai/src/topics/shifts';
import { sentenceVectors, topicStarts } from '../../packages/ai/src/topics/shifts';
import { MARKED_SETS, spokenSet, type MarkedSetName } from './sets';
import { paragraphSpan } from './talks';

const sets = (process.argv.slice(2).length ? process.argv.slice(2) : ['dev']) as MarkedSetName[];
if (sets.some((set) => set === 'frozen' || !(set in MARKED_SETS)))
  throw new Error('dev sets only: nothing is tuned on the frozen set');
const { embedder } = await loadDefaultEmbedder();
const talks = [];
for (const set of sets)
  for (const talk of await spokenSet(set, undefined, { cachedOnly: true })) {
    const sentences = splitSentences(talk.transcript);
    const vectors = await sentenceVectors(talk.transcript, sentences, embedder ?? null);
    const shifts = talk.paragraphs.flatMap((p, i) =>
      p.shift ? [paragraphSpan(talk, i).startMs] : [],
    );
    talks.push({ name: `${set}/${talk.name}`, sentences, vectors, shifts });
  }
const axes = JSON.parse(process.env.TUNE_GRID ?? '{}') as Record<string, unknown[]>;
let combos: Record<string, unknown>[] = [{}];
for (const [key, values] of Object.entries(axes))
  combos = combos.flatMap((combo) => values.map((value) => ({ ...combo, [key]: value })));
// The defaults first, then every combination of the grid's values.
const grid = [{}, ...(Object.keys(axes).length ? combos : [])] as Partial<typeof TUNING>[];
for (const tuning of grid) {
  let starts = 0;
  let onShift = 0;
  let shifts = 0;
  let found = 0;
  for (const talk of talks) {
    const chapterStarts = topicStarts(talk.sentences, talk.vectors, tuning)
      .slice(1)
      .map((i) => talk.sentences[i]!.startMs);
    const near = (a: number, b: number) => Math.abs(a - b) <= 5000;
    starts += chapterStarts.length;
    onShift += chapterStarts.filter((s) => talk.shifts.some((shift) => near(s, shift))).length;
    shifts += talk.shifts.length;
    found += talk.shifts.filter((shift) => chapterStarts.some((s) => near(s, shift))).length;
  }
  const precision = onShift / Math.max(1, starts);
  const recall = found / Math.max(1, shifts);
  console.log(
    `${JSON.stringify(tuning)}: on shift ${onShift}/${starts} (${(100 * precision).toFixed(0)}%), shifts found ${found}/${shifts}, F1 ${((2 * precision * recall) / Math.max(1e-9, precision + recall)).toFixed(2)}`,
  );
}
