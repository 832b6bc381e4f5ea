/**
 * `node --import tsx bench/marked-talks/answers-dev.ts [dev ...]`: every dev question whose top
 * answer is not good, with the marked answer beside it. Dev sets only.
 */
import { searchMomentsWithReport } from '../../packages/ai/src/search/index';
import { overlapMs } from './metrics';
import { MARKED_SETS, spokenSet, type MarkedSetName } from './sets';
import { spanOf } from './talks';

const sets = (process.argv.slice(2).length ? process.argv.slice(2) : ['dev']) as MarkedSetName[];
if (sets.some((set) => set === 'frozen' || !(set in MARKED_SETS)))
  throw new Error('dev sets only: nothing is tuned on the frozen set');
let asked = 0;
let good = 0;
for (const set of sets)
  for (const talk of await spokenSet(set, undefined, { cachedOnly: true }))
    for (const question of new RegExp(process.env.TUNE_TALKS ?? '.').test(talk.name)
      ? talk.questions
      : []) {
      const marked = spanOf(talk, question.sentences);
      const { moments } = await searchMomentsWithReport(talk.transcript, question.question, {
        limit: 3,
      });
      const top = moments[0];
      const covers = top && overlapMs(top, marked) >= 0.5 * (marked.endMs - marked.startMs);
      const extra = top ? (top.endMs - top.startMs - (marked.endMs - marked.startMs)) / 1000 : 0;
      asked++;
      if (covers && extra <= 15) {
        good++;
        continue;
      }
      const second = moments.findIndex(
        (m) => overlapMs(m, marked) >= 0.5 * (marked.endMs - marked.startMs),
      );
      console.log(
        `${set}/${talk.name} Q "${question.question}" marked ${(marked.startMs / 1000).toFixed(0)}-${(marked.endMs / 1000).toFixed(0)} s: "${question.answer.slice(0, 120)}"`,
      );
      console.log(
        `   top ${top ? `${(top.startMs / 1000).toFixed(0)}-${(top.endMs / 1000).toFixed(0)} s covers=${covers} extra=${extra.toFixed(1)} "${top.text.slice(0, 160)}"` : 'none'}; covering answer at rank ${second + 1}`,
      );
    }
console.log(`good answers: ${good}/${asked}`);
