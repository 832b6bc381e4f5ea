/**
 * `node --import tsx bench/marked-talks/generate.ts dev|frozen`: speaks and transcribes every talk of
 * the set once (kept, gzipped, in bench/<set>/transcripts; talks already there are skipped).
 */
import { MARKED_SETS, spokenSet, type MarkedSetName } from './sets';

const set = (process.argv[2] ?? 'dev') as MarkedSetName;
if (!(set in MARKED_SETS)) throw new Error(`unknown set "${set}": dev, dev2 or frozen`);
await spokenSet(set, (talk, seconds) => {
  const end = talk.sentenceSpans.at(-1)!.endMs;
  console.log(
    `${set}/${talk.name}: ${(end / 60000).toFixed(1)} min, ${talk.sentences.length} sentences, ` +
      `${talk.paragraphs.filter((p) => p.main).length} main points, ${talk.questions.length} questions (${seconds.toFixed(0)} s)`,
  );
});
